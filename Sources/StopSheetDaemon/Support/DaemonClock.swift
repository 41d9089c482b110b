import Glibc
import StopSheetCore

/// Where the daemon's wall-clock time comes from, for alert kinds, ages, staleness and `health`
/// timestamps: one value, made at start and passed to the store (and through it the
/// refreshers), the service and the loop's tick. The real clock, `--now`'s pinned one, or in
/// tests one set by hand. The core never reads a clock; this is where its `now` comes from.
public struct DaemonClock: Sendable {
    /// `--now` (`health.clock.pinned`).
    public let isPinned: Bool
    private let read: @Sendable () -> Instant

    /// A clock reading `read` (tests: a manual one).
    public init(pinned: Bool = false, read: @escaping @Sendable () -> Instant) {
        isPinned = pinned
        self.read = read
    }

    public func now() -> Instant { read() }

    /// CLOCK_REALTIME, to the second.
    public static let system = DaemonClock {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Instant(secondsSince1970: Int64(spec.tv_sec))
    }

    /// `--now`: reads `instant` now and runs on from it at the rate of the monotonic clock, so a
    /// step of the real clock (NTP, a suspend) moves nothing.
    public static func pinned(at instant: Instant) -> DaemonClock {
        let offset = instant.secondsSince1970 * 1_000_000_000 - SystemClock.monotonicNanoseconds()
        return DaemonClock(pinned: true) { Instant(secondsSince1970: wholeSeconds(nanoseconds: offset + SystemClock.monotonicNanoseconds())) }
    }

    /// The second a time in nanoseconds since 1970 falls in: floored, so that the second of a pin
    /// before 1970 lasts a whole second too (division truncates towards zero).
    static func wholeSeconds(nanoseconds: Int64) -> Int64 {
        nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds + 1) / 1_000_000_000 - 1
    }
}
