#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// An eventfd as a wake-up counter for `poll`/`epoll`: `signal` from any thread, `drain` on the
/// thread that waits. Stateless; the caller owns the descriptor.
public enum EventFD {
    /// A new eventfd at 0, non-blocking and close-on-exec.
    public static func open() throws(Errno) -> Int32 {
        let fd = clinux_eventfd()
        guard fd >= 0 else { throw Errno.current }
        return fd
    }

    /// Adds one, waking a waiter. Cannot block: the counter would need 2^64 - 2 unread signals.
    public static func signal(_ fd: Int32) {
        var one: UInt64 = 1
        _ = write(fd, &one, MemoryLayout<UInt64>.size)
    }

    /// Resets the counter to 0; false when it was 0 already (non-blocking, so that is no wait).
    @discardableResult
    public static func drain(_ fd: Int32) -> Bool {
        var counter: UInt64 = 0
        return read(fd, &counter, MemoryLayout<UInt64>.size) == MemoryLayout<UInt64>.size
    }
}
