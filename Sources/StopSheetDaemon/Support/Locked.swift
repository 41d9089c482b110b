import Glibc

/// A value behind a pthread mutex: the daemon's one lock type.
///
/// Not `Synchronization.Mutex`: on Linux it locks with a futex inside the Swift runtime, which
/// ThreadSanitizer cannot see, so every section it guards looked like a race under
/// `make sanitize` and had to be suppressed. TSan intercepts pthread mutexes, so with this type it
/// checks the daemon's real ordering instead. Uncontended, both cost the same.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

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
