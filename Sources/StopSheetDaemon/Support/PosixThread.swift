import CLinux
import Glibc

/// Starts a detached POSIX thread. The daemon's long-running parts (serving loop, refreshers,
/// signal handling) each own one thread; none runs blocking I/O on Swift Concurrency's pool.
public func startThread(name: String, _ body: @escaping @Sendable () -> Void) {
    final class Box: @unchecked Sendable {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) { (self.name, self.body) = (name, body) }
    }
    let box = Unmanaged.passRetained(Box(name: name, body: body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(&thread, nil, { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
    }, box)
    precondition(result == 0, "pthread_create failed: \(result)")
    pthread_detach(thread)
}

/// A wake-up channel: one thread waits with a deadline, others `signal()`. An eventfd under
/// `poll`, so a waiter needs no lock and a signal is never lost between checks.
///
/// Threads: one waiting thread at a time (a wait takes every signal made so far); any thread signals.
public final class WakeSignal: Sendable {
    private let fd: Int32

    public init() {
        do throws(Errno) { fd = try EventFD.open() } catch { preconditionFailure("eventfd failed: \(error)") }
    }

    deinit { close(fd) }

    public func signal() { EventFD.signal(fd) }

    /// Waits until signalled or `milliseconds` pass (negative = forever). True when signalled.
    @discardableResult
    public func wait(milliseconds: Int64) -> Bool {
        var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let timeout = milliseconds < 0 ? -1 : Int32(clamping: milliseconds)
        guard poll(&pollfd, 1, timeout) > 0 else { return false }
        return EventFD.drain(fd)
    }
}
