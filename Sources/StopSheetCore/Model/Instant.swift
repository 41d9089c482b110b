/// A point in time, in whole seconds since the Unix epoch. Upstream times are to the second,
/// and the clock rule ("a start that passes turns Active") is honoured to within a second.
/// The core never reads a clock: callers pass `now` in. Shown in a zone by `TimeZoneRules.iso8601`.
public struct Instant: Hashable, Comparable, Sendable {
    public var secondsSince1970: Int64

    public init(secondsSince1970: Int64) { self.secondsSince1970 = secondsSince1970 }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.secondsSince1970 < rhs.secondsSince1970 }

    public func adding(seconds: Int64) -> Instant { Instant(secondsSince1970: secondsSince1970 + seconds) }

    public func seconds(since other: Instant) -> Int64 { secondsSince1970 - other.secondsSince1970 }
}
