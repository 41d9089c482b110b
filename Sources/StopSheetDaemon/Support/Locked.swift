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
    /// In a slot of its own rather than a stored property. A stored property handed `inout` to
    /// the closure is checked by Swift at run time on every `withLock` (a read of the store's
    /// generation per request, too), which the mutex makes needless. And a zero-sized one
    /// (`Locked(())`, a lock guarding a section) has no storage of its own: ThreadSanitizer saw
    /// its accesses at the object's address and reported one under the mutex racing a read of
    /// the object outside it.
    private let value: UnsafeMutablePointer<Value>

    public init(_ value: Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}

/// Shared between threads only when the value may be: the mutex makes the access exclusive, not
/// a non-`Sendable` value (a class with its own state, a closure that captures one) safe to use
/// from another thread (swift-nio's `NIOLockedValueBox` asks the same).
extension Locked: @unchecked Sendable where Value: Sendable {}
