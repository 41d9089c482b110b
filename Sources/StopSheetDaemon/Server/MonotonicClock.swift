#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_MONOTONIC in nanoseconds: the loop's timeouts must not jump with the wall clock.
enum MonotonicClock {
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}

extension Duration {
    /// Whole nanoseconds, negative durations as zero, absurdly long ones capped at ~31 years.
    var clampedNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        return min(seconds, 1_000_000_000) * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
