#if canImport(Glibc)
import Glibc
#endif
import Posix

/// Everything other threads hand to the serving loop: posted work, handlers' deferred answers and
/// the stop request. The first hand-over after the loop last took its inbox writes the loop's
/// eventfd so that `epoll_wait` returns; the others join that wake-up (a burst costs one write).
final class LoopInbox: Sendable {
    struct Completion: Sendable {
        let fd: Int32
        /// The connection's `ConnectionHandler.Resumption`: the server makes its inbox before the
        /// loop, so the inbox names no handler type (a deferred answer is rare: the box is cheap).
        let resumption: any Sendable
    }

    struct Batch {
        var work: [@Sendable () -> Void] = []
        var completions: [Completion] = []
        var stopRequested = false
    }

    private struct State {
        /// The loop's eventfd while it runs; the inbox is its owner and closes it.
        var wake: Descriptor?
        var pending = Batch()
        /// The eventfd was written and the loop has not taken the inbox since.
        var woken = false

        mutating func wakeLoop() {
            guard let wake, !woken else { return }
            woken = true
            EventFD.signal(wake.raw)
        }
    }

    private let state = Locked(State())

    /// While the loop runs; before and after, hand-overs are only queued (or dropped with the inbox).
    func open(wake: Descriptor) {
        state.withLock {
            $0.wake = wake
            $0.woken = false
            if !$0.pending.work.isEmpty || !$0.pending.completions.isEmpty || $0.pending.stopRequested { $0.wakeLoop() }
        }
    }

    /// Closes the eventfd under the lock, so a late completion can never write to a reused fd.
    func close() {
        state.withLock {
            $0.wake?.close()
            $0.wake = nil
        }
    }

    func post(_ work: @escaping @Sendable () -> Void) {
        state.withLock {
            $0.pending.work.append(work)
            $0.wakeLoop()
        }
    }

    func complete(_ completion: Completion) {
        state.withLock {
            $0.pending.completions.append(completion)
            $0.wakeLoop()
        }
    }

    func requestStop() {
        state.withLock {
            $0.pending.stopRequested = true
            $0.wakeLoop()
        }
    }

    /// Everything handed over so far; the stop request stays set.
    func take() -> Batch {
        state.withLock {
            if let wake = $0.wake, $0.woken { EventFD.drain(wake.raw) }
            $0.woken = false
            let batch = $0.pending
            $0.pending.work.removeAll()
            $0.pending.completions.removeAll()
            return batch
        }
    }
}
