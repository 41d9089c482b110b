import Synchronization

/// Runs the daemon's reload on a thread of its own, so the signals thread stays free to take a
/// SIGTERM while a reload waits on a slow upstream. Reloads asked for while one runs are
/// coalesced into one more run afterwards: that one reads the configuration as it is by then,
/// which is all the requests together were asking for.
///
/// Threads: the `reload` thread runs the work; `request` and `stop` are called from any thread.
final class ReloadThread: Sendable {
    private let wake = WakeSignal()
    private let stopped = Atomic<Bool>(false)

    /// Starts the thread; `work` runs once per (coalesced) request until `stop()`.
    func start(_ work: @escaping @Sendable () -> Void) -> PosixThread {
        PosixThread(name: "reload") { [self] in
            // The eventfd counts the requests made meanwhile; one wait-and-read takes them all.
            while true {
                wake.wait(milliseconds: -1)
                if stopped.load(ordering: .acquiring) { return }
                work()
            }
        }
    }

    func request() { wake.signal() }

    /// No reload starts after this; one in progress finishes on its own (and says nothing more).
    func stop() {
        stopped.store(true, ordering: .releasing)
        wake.signal()
    }
}
