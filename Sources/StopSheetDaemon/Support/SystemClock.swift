import Glibc
import StopSheetCore

/// The daemon's clocks. The core never reads one; these are where `now` comes from.
public enum SystemClock {
    /// Wall-clock time, for alert kinds and `health` timestamps.
    public static func now() -> Instant {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Instant(secondsSince1970: Int64(spec.tv_sec))
    }

    /// CLOCK_MONOTONIC in nanoseconds, for timeouts and intervals that must not jump with the
    /// wall clock — and the clock systemd compares `MONOTONIC_USEC=` against.
    public static func monotonicNanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    public static func monotonicMilliseconds() -> Int64 { monotonicNanoseconds() / 1_000_000 }
}
