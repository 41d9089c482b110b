import Glibc

/// Debug builds' check that a loop-only type is used by one thread alone, as swift-nio's
/// `assertInEventLoop` does: the first thread to call `check` owns the value from then on, and
/// any other thread's call stops the process with the type's name. Release builds keep nothing
/// and check nothing.
struct OwningThread {
    #if DEBUG
    private var owner: pthread_t?
    #endif

    @inline(__always)
    mutating func check(_ type: StaticString) {
        #if DEBUG
        let me = pthread_self()
        if let owner {
            precondition(pthread_equal(owner, me) != 0, "\(type) is used off its owning thread (the serving loop's)")
        } else {
            owner = me
        }
        #endif
    }
}
