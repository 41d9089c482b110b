/// One time zone's offset from UTC at every instant, as the system's time-zone database says
/// (`TZifDecoder` reads it; the daemon finds the file). The core never reads the database
/// itself: it is handed the rules, as it is handed `now`.
///
/// The offset at an instant is the last transition's at or before it; before the first, the
/// zone's first local time; after the last, the database's rule for later years
/// (`RecurringZoneRule`), or the last offset if it has none.
public struct TimeZoneRules: Sendable, Equatable {
    /// The database's name for the zone, `America/Chicago`.
    public let identifier: String
    /// Seconds since 1970 at which the offset changes, ascending; `offsets[i]` holds from `transitions[i]`.
    let transitions: [Int64]
    let offsets: [Int]
    let initialOffset: Int
    let laterYears: RecurringZoneRule?
    /// False for `notKnown` alone: no zone is claimed, and times are UTC written with `Z`.
    public let isKnown: Bool

    init(identifier: String, transitions: [Int64], offsets: [Int], initialOffset: Int, laterYears: RecurringZoneRule?, isKnown: Bool = true) {
        (self.identifier, self.transitions, self.offsets, self.initialOffset, self.laterYears) = (identifier, transitions, offsets, initialOffset, laterYears)
        self.isKnown = isKnown
    }

    /// UTC itself, which needs no database.
    public static let utc = TimeZoneRules(identifier: "UTC", transitions: [], offsets: [], initialOffset: 0, laterYears: nil)

    /// No zone yet: nothing has said whose clock the data is on. Times are UTC, written with `Z`
    /// (`2015-02-14T20:35:00Z`), so none looks like an agency's wall clock that is not.
    public static let notKnown = TimeZoneRules(identifier: "UTC", transitions: [], offsets: [], initialOffset: 0, laterYears: nil, isKnown: false)

    /// The zone's name, nil when none is known.
    public var name: String? { isKnown ? identifier : nil }

    /// Seconds east of UTC at `instant`: −21600 for Chicago in winter.
    public func utcOffset(at instant: Instant) -> Int {
        let t = instant.secondsSince1970
        guard let last = transitions.last else { return laterYears?.utcOffset(at: t) ?? initialOffset }
        if t >= last, let laterYears { return laterYears.utcOffset(at: t) }
        var low = 0, high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= t { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initialOffset : offsets[low - 1]
    }

    public func wallClock(_ instant: Instant) -> WallClock {
        WallClock(secondsSince1970: instant.secondsSince1970 + Int64(utcOffset(at: instant)))
    }

    /// The instant a wall-clock time names here. A time the clocks skip (spring forward's lost
    /// hour) is read with the offset before the jump, so 02:30 in Chicago's gap is 03:30 CDT; a
    /// time they show twice (autumn's repeated hour) is its first occurrence, the earlier
    /// instant. Both as a person who wrote the time before the change most likely meant it.
    public func instant(_ wall: WallClock) -> Instant {
        let local = wall.secondsSince1970
        // The offsets a day before and after: a zone changes at most once within a day (tzdata
        // lists no two changes closer), so these are the two a wall-clock time can be read with.
        let before = utcOffset(at: Instant(secondsSince1970: local - 86_400))
        let after = utcOffset(at: Instant(secondsSince1970: local + 86_400))
        let candidates = [before, after].map { Instant(secondsSince1970: local - Int64($0)) }
        let valid = candidates.filter { wallClock($0) == wall }
        return valid.min() ?? candidates[0]
    }

    /// ISO 8601 with the offset in force: `2015-02-14T14:35:00-06:00`; in no known zone, UTC
    /// with `Z`: `2015-02-14T20:35:00Z`.
    public func iso8601(_ instant: Instant) -> String {
        var bytes: [UInt8] = []
        wallClock(instant).appendISO8601(to: &bytes)
        if isKnown {
            let offset = utcOffset(at: instant)
            let minutes = abs(offset) / 60
            bytes.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            WallClock.appendTwo(minutes / 60, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            WallClock.appendTwo(minutes % 60, to: &bytes)
        } else {
            bytes.append(UInt8(ascii: "Z"))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
