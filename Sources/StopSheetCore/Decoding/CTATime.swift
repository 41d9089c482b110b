/// The date forms the CTA APIs send, all America/Chicago wall-clock time without an offset:
/// JSON `2015-02-14T14:35:00`, `2015-02-14T14:35`, bare `2014-08-15` (local midnight); old XML
/// `20150214 14:35`, `20150214 14:35:00`, `20140815`.
public enum CTATime {
    public static func wallClock(_ text: String) -> ChicagoTime.WallClock? {
        var scanner = TimestampScanner(UpstreamText.trimmed(text))
        guard let year = scanner.digits(4) else { return nil }
        let isDashed = scanner.skip("-")
        guard let month = scanner.digits(2), !isDashed || scanner.skip("-"), let day = scanner.digits(2) else { return nil }
        var wall = ChicagoTime.WallClock(year: year, month: month, day: day)
        if !scanner.isAtEnd {
            guard scanner.skip(isDashed ? "T" : " "), scanner.clock(into: &wall) else { return nil }
        }
        guard scanner.isAtEnd, wall.isValid else { return nil }
        return wall
    }

    public static func instant(_ text: String) -> Instant? {
        wallClock(text).map(ChicagoTime.instant)
    }
}
