/// ISO 8601 timestamps `YYYY-MM-DDTHH:MM[:SS[.fff]]` with `Z` or a `±HH:MM` offset naming an
/// exact instant, or without one naming a wall-clock time (as CTA's app API writes Chicago's);
/// a bare date is local midnight. Fractions of a second are dropped: `Instant` is whole seconds.
public enum ISO8601Time {
    /// The wall clock as written, and the offset east of UTC in seconds when one is given.
    public static func parse(_ text: String) -> (wall: WallClock, utcOffset: Int?)? {
        var scanner = TimestampScanner(UpstreamText.trimmed(text))
        guard let year = scanner.digits(4), scanner.skip("-"), let month = scanner.digits(2), scanner.skip("-"),
            let day = scanner.digits(2)
        else { return nil }
        var wall = WallClock(year: year, month: month, day: day)
        if scanner.isAtEnd {
            return wall.isValid ? (wall, nil) : nil
        }
        guard scanner.skip(anyOf: "Tt") != nil, scanner.clock(into: &wall) else { return nil }
        if scanner.skip(".") || scanner.skip(",") {
            guard scanner.skipDigits() > 0 else { return nil }
        }
        guard wall.isValid else { return nil }
        if scanner.isAtEnd { return (wall, nil) }

        let offsetSeconds: Int
        if scanner.skip(anyOf: "Zz") != nil {
            offsetSeconds = 0
        } else if let sign = scanner.skip(anyOf: "+-") {
            guard let hours = scanner.digits(2) else { return nil }
            _ = scanner.skip(":")
            guard let minutes = scanner.digits(2), hours <= 23, minutes <= 59 else { return nil }
            offsetSeconds = (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard scanner.isAtEnd else { return nil }
        return (wall, offsetSeconds)
    }

    /// The instant `text` names; one without an offset is wall-clock time in `localTime`.
    public static func instant(_ text: String, localTime: TimeZoneRules) -> Instant? {
        guard let (wall, offset) = parse(text) else { return nil }
        guard let offset else { return localTime.instant(wall) }
        return Instant(secondsSince1970: wall.secondsSince1970 - Int64(offset))
    }
}
