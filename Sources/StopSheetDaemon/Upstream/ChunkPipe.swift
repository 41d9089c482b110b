import Glibc

/// A bounded hand-over of filled buffers from one producer thread to one consumer, in order:
/// inflating a feed's table (one core) runs beside parsing it (the other), so a load takes about
/// as long as inflating alone. Memory is the fixed buffers, whatever the table's size.
///
/// Threads: `produce` runs on the producer's thread, `consume` on the consumer's; `cancel` from
/// the consumer's (it stops a producer blocked on a full pipe). State is under `mutex`.
final class ChunkPipe: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let buffers: [UnsafeMutableRawBufferPointer]
    private var free: [Int]
    private var filled: [(buffer: Int, count: Int)] = []
    private var ended = false
    private var failure: (any Error)?
    private var cancelled = false

    init(buffers count: Int, bytes: Int) {
        buffers = (0..<count).map { _ in UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 16) }
        free = Array(buffers.indices)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
        for buffer in buffers { buffer.deallocate() }
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
        }
        return body()
    }

    private func wait(until ready: () -> Bool) {
        while !ready() { pthread_cond_wait(changed, mutex) }
    }

    /// Fills buffers with `fill` (bytes written; 0 at the end) until the end, a failure (handed
    /// to the consumer) or `cancel`.
    func produce(_ fill: (UnsafeMutableRawBufferPointer) throws -> Int) {
        while true {
            let next: Int? = locked {
                wait { !free.isEmpty || cancelled }
                return cancelled ? nil : free.removeFirst()
            }
            guard let next else { return }
            do {
                let count = try fill(buffers[next])
                locked {
                    if count > 0 { filled.append((next, count)) } else { ended = true }
                }
                if count == 0 { return }
            } catch {
                locked { failure = error }
                return
            }
        }
    }

    /// Hands each filled buffer to `chunk`, in order, until the producer's end; rethrows its
    /// failure.
    func consume(_ chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        while true {
            let next: (buffer: Int, count: Int)? = locked {
                wait { !filled.isEmpty || ended || failure != nil }
                return filled.isEmpty ? nil : filled.removeFirst()
            }
            guard let next else {
                if let failure = locked({ failure }) { throw failure }
                return
            }
            try chunk(UnsafeRawBufferPointer(rebasing: buffers[next.buffer][..<next.count]))
            locked { free.append(next.buffer) }
        }
    }

    /// Stops the producer at its next buffer.
    func cancel() { locked { cancelled = true } }
}
