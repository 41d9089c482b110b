import CLinux

/// Hands the heap's free pages back to the kernel (`malloc_trim`), one caller at a time.
///
/// Threads: any. Serialised because glibc's first `malloc_trim` marks its allocator initialised
/// before it has set up the main arena. Under the sanitizers, whose allocator replaces glibc's,
/// that first call came from both refreshers at once. One of them walked the half-made arena and
/// died of SEGV in `mtrim`, which TSan's CI run also reported as its own CHECK failure. Without a
/// sanitizer, glibc is initialised long before any thread starts. The daemon makes the first call
/// itself, before it starts the refreshers, so the lock is created on one thread too.
enum HeapTrim {
    private static let lock = Locked(())

    static func releaseFreePages() {
        lock.withLock { _ in _ = malloc_trim(0) }
    }
}
