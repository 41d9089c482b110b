/// The generation each new connection gets (`EventLoop` tags its epoll events and its handler's
/// wake-ups with it). Consecutive connections always differ, and none has 0, the tag of the
/// loop's own descriptors (the listeners and the wake-up eventfd): after 2³² − 1 connections the
/// count starts again at 1.
struct ConnectionGenerations {
    private(set) var last: UInt32

    /// `last` is the generation given before (0: none yet).
    init(last: UInt32 = 0) { self.last = last }

    mutating func next() -> UInt32 {
        last = last == UInt32.max ? 1 : last + 1
        return last
    }
}
