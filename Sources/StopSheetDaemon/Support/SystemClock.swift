import Glibc

/// The monotonic clock, for timeouts and intervals that must not jump with the wall clock. Wall
/// time is a `DaemonClock` passed in, never read here.
public enum SystemClock {
    /// CLOCK_MONOTONIC in nanoseconds — also the clock systemd compares `MONOTONIC_USEC=` against.
    public static func monotonicNanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    public static func monotonicMilliseconds() -> Int64 { monotonicNanoseconds() / 1_000_000 }
}
