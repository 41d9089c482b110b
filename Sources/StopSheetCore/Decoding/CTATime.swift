/// The date forms the CTA APIs send, all America/Chicago wall-clock time without an offset:
/// JSON `2015-02-14T14:35:00`, `2015-02-14T14:35`, bare `2014-08-15` (local midnight); old XML
/// `20150214 14:35`, `20150214 14:35:00`, `20140815`. Read with the zone's rules from the
/// time-zone database, so a skipped or repeated hour is resolved as `TimeZoneRules.instant` says.
public enum CTATime {
    /// The zone of CTA's wall-clock times, and so of every time shown for CTA.
    public static let zoneIdentifier = "America/Chicago"

    public static func wallClock(_ text: String) -> WallClock? {
        var scanner = TimestampScanner(UpstreamText.trimmed(text))
        guard let year = scanner.digits(4) else { return nil }
        let isDashed = scanner.skip("-")
        guard let month = scanner.digits(2), !isDashed || scanner.skip("-"), let day = scanner.digits(2) else { return nil }
        var wall = WallClock(year: year, month: month, day: day)
        if !scanner.isAtEnd {
            guard scanner.skip(isDashed ? "T" : " "), scanner.clock(into: &wall) else { return nil }
        }
        guard scanner.isAtEnd, wall.isValid else { return nil }
        return wall
    }

    /// `chicago`: the rules of `zoneIdentifier`.
    public static func instant(_ text: String, in chicago: TimeZoneRules) -> Instant? {
        wallClock(text).map(chicago.instant)
    }
}
