import Glibc
import StopSheetCore
import Synchronization

/// The daemon's clocks. The core never reads one; these are where `now` comes from.
public enum SystemClock {
    /// Wall-clock time, for alert kinds, ages, staleness and `health` timestamps: the real
    /// clock, or, once `pin(to:)` has been called (`--now`), the pinned one.
    public static func now() -> Instant {
        let offset = pinOffsetNanoseconds.load(ordering: .relaxed)
        guard offset != notPinned else { return realNow() }
        // Floor, so that the second of the pin lasts a whole second.
        let nanoseconds = offset + monotonicNanoseconds()
        return Instant(secondsSince1970: nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds + 1) / 1_000_000_000 - 1)
    }

    /// `--now`: from this call on, `now()` reads `instant` and runs on from it at the rate of the
    /// monotonic clock, so a step of the real clock (NTP, a suspend) moves nothing. Called once,
    /// at start-up, before any thread reads the clock; a reload never moves it.
    public static func pin(to instant: Instant) {
        pinOffsetNanoseconds.store(instant.secondsSince1970 * 1_000_000_000 - monotonicNanoseconds(), ordering: .relaxed)
    }

    /// Whether `now()` is pinned (`health.clock.pinned`).
    public static var isPinned: Bool { pinOffsetNanoseconds.load(ordering: .relaxed) != notPinned }

    /// Pinned time minus the monotonic clock, in nanoseconds; `notPinned` for the real clock.
    private static let pinOffsetNanoseconds = Atomic<Int64>(notPinned)
    private static let notPinned = Int64.min

    private static func realNow() -> Instant {
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
