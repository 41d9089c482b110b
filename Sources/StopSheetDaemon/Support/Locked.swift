import Glibc

/// A value behind a pthread mutex: how the daemon guards a value that threads share. (The one
/// other mutex, `ChunkPipe`'s, is there for the condition variable its threads wait on.)
///
/// Not `Synchronization.Mutex`: on Linux it locks with a futex inside the Swift runtime, which
/// ThreadSanitizer cannot see, so every section it guards looked like a race under
/// `make sanitize` and had to be suppressed. TSan intercepts pthread mutexes, so with this type it
/// checks the daemon's real ordering instead. Uncontended, both cost the same.
public final class Locked<Value> {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Handed `inout` to a closure, so Swift would check it at run time on every `withLock` (a
    /// read of the store's generation per request, too). The mutex already excludes the other
    /// threads, and a nested `withLock` on the same thread blocks before it could overlap.
    @exclusivity(unchecked) private var value: Value

    public init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

/// Shared between threads only when the value may be: the mutex makes the access exclusive, not
/// a non-`Sendable` value (a class with its own state, a closure that captures one) safe to use
/// from another thread (swift-nio's `NIOLockedValueBox` asks the same).
extension Locked: @unchecked Sendable where Value: Sendable {}
