#if canImport(Glibc)
import Glibc
#endif

/// A client that hangs up while we write would otherwise kill the process with SIGPIPE. The
/// server also sends with MSG_NOSIGNAL, but other writers (logging to a closed stderr pipe,
/// libraries) would not: ignore it process-wide, once, at start-up.
public func ignoreSIGPIPE() {
    _ = signal(SIGPIPE, SIG_IGN)
}

/// SIGTERM, SIGINT and SIGHUP, taken by one thread that waits for them (`sigwait`), never by a
/// handler: what they start (a drain, a reload) is far too much for async-signal context.
enum Signals {
    private static var handled: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&set, signal) }
        return set
    }

    /// Blocks the handled signals on the calling thread. Called first thing in `main`: every
    /// thread started later inherits the mask, and a SIGTERM that arrives while the daemon is
    /// still starting waits for the signals thread instead of killing the process.
    static func block() {
        var set = handled
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts the `signals` thread. SIGHUP calls `reload`, which must only hand the work over
    /// (the thread must stay free for a SIGTERM); SIGTERM or SIGINT calls `stop` and ends the
    /// thread. Later signals stay blocked and pending: the first stop is the one that counts.
    /// A stop that came another way ends the thread with `send(SIGTERM)` to it.
    static func startWaiting(reload: @escaping @Sendable () -> Void, stop: @escaping @Sendable (_ signal: Int32) -> Void) -> PosixThread {
        PosixThread(name: "signals") {
            var set = handled
            while true {
                var signal: Int32 = 0
                guard sigwait(&set, &signal) == 0 else { continue }
                if signal == SIGHUP {
                    reload()
                } else {
                    stop(signal)
                    return
                }
            }
        }
    }
}
