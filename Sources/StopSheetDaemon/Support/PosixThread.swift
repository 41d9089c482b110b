import CLinux
import Glibc

/// One of the daemon's own POSIX threads. The daemon's long-running parts (serving loop,
/// refreshers, reloads, signal handling) each own one; none runs blocking I/O on Swift
/// Concurrency's pool. Threads are joinable, and the daemon joins each before it exits: a thread
/// still unwinding while `exit` runs the process's destructors is how daemons crash on the way out.
///
/// Threads: a handle may be used from any thread, but joined by one thread only.
public struct PosixThread: @unchecked Sendable {
    private let thread: pthread_t
    /// As given; the kernel's copy is cut to 15 bytes.
    public let name: String

    /// Starts `body` on a new thread named `name` (as `top -H` and `/proc` show it, at most 15 bytes).
    public init(name: String, _ body: @escaping @Sendable () -> Void) {
        final class Box: @unchecked Sendable {
            let name: String
            let body: @Sendable () -> Void
            init(name: String, body: @escaping @Sendable () -> Void) { (self.name, self.body) = (name, body) }
        }
        let box = Unmanaged.passRetained(Box(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            clinux_set_thread_name(String(decoding: box.name.utf8.prefix(15), as: UTF8.self))
            box.body()
            return nil
        }, box)
        precondition(result == 0, "pthread_create failed: \(result)")
        self.thread = thread
        self.name = name
    }

    /// Waits up to `milliseconds` for the thread to end; true once it has (then the handle is spent).
    public func join(milliseconds: Int64) -> Bool {
        clinux_join_thread(thread, max(0, milliseconds)) == 0
    }

    /// Lets the thread end on its own, unjoined (one still busy when the daemon exits): the
    /// process does not keep it as a leak.
    public func detach() {
        _ = pthread_detach(thread)
    }

    /// Sends `signal` to this thread alone (the signals thread takes a SIGTERM this way).
    public func send(_ signal: Int32) {
        _ = pthread_kill(thread, signal)
    }
}

/// A wake-up channel: one thread waits with a deadline, others `signal()`. An eventfd under
/// `poll`, so a waiter needs no lock and a signal is never lost between checks.
///
/// Threads: one waiting thread at a time (a wait takes every signal made so far); any thread signals.
public final class WakeSignal: Sendable {
    private let eventFD: Descriptor
    private var fd: Int32 { eventFD.raw }

    public init() {
        do throws(Errno) { eventFD = Descriptor(adopting: try EventFD.open()) } catch { preconditionFailure("eventfd failed: \(error)") }
    }

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
