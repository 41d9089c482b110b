#if canImport(Glibc)
import Glibc
#endif

/// Everything other threads hand to the serving loop: posted work, sessions' deferred answers and
/// the stop request. Each hand-over writes the loop's eventfd so that `epoll_wait` returns.
final class LoopInbox: Sendable {
    struct Completion: Sendable {
        let fd: Int32
        let resumption: Session.Resumption
    }

    struct Batch {
        var work: [@Sendable () -> Void] = []
        var completions: [Completion] = []
        var stopRequested = false
    }

    private struct State {
        var wakeFD: Int32 = -1
        var pending = Batch()
    }

    private let state = Locked(State())

    /// While the loop runs; before and after, hand-overs are only queued (or dropped with the inbox).
    func open(wakeFD: Int32) {
        state.withLock {
            $0.wakeFD = wakeFD
            if !$0.pending.work.isEmpty || !$0.pending.completions.isEmpty || $0.pending.stopRequested { Self.wake($0.wakeFD) }
        }
    }

    /// Closes the eventfd under the lock, so a late completion can never write to a reused fd.
    func close() {
        state.withLock {
            if $0.wakeFD >= 0 { Glibc.close($0.wakeFD) }
            $0.wakeFD = -1
        }
    }

    func post(_ work: @escaping @Sendable () -> Void) {
        state.withLock {
            $0.pending.work.append(work)
            Self.wake($0.wakeFD)
        }
    }

    func complete(_ completion: Completion) {
        state.withLock {
            $0.pending.completions.append(completion)
            Self.wake($0.wakeFD)
        }
    }

    func requestStop() {
        state.withLock {
            $0.pending.stopRequested = true
            Self.wake($0.wakeFD)
        }
    }

    /// Everything handed over so far; the stop request stays set.
    func take() -> Batch {
        state.withLock {
            if $0.wakeFD >= 0 {
                var counter: UInt64 = 0
                _ = Glibc.read($0.wakeFD, &counter, MemoryLayout<UInt64>.size)
            }
            let batch = $0.pending
            $0.pending.work.removeAll()
            $0.pending.completions.removeAll()
            return batch
        }
    }

    private static func wake(_ fd: Int32) {
        guard fd >= 0 else { return }
        var one: UInt64 = 1
        // EAGAIN only if the counter is near 2^64: the loop is awake then anyway.
        _ = Glibc.write(fd, &one, MemoryLayout<UInt64>.size)
    }
}
