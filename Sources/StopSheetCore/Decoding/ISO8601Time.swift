/// The app API's timestamps: ISO 8601 `YYYY-MM-DDTHH:MM[:SS[.fff]]` with `Z` or a `±HH:MM`
/// offset naming an exact instant, or without one naming Chicago wall-clock time (as CTA does);
/// a bare date is Chicago midnight. Fractions of a second are dropped: `Instant` is whole seconds.
public enum ISO8601Time {
    public static func instant(_ text: String) -> Instant? {
        var scanner = TimestampScanner(UpstreamText.trimmed(text))
        guard let year = scanner.digits(4), scanner.skip("-"), let month = scanner.digits(2), scanner.skip("-"),
            let day = scanner.digits(2)
        else { return nil }
        var wall = ChicagoTime.WallClock(year: year, month: month, day: day)
        if scanner.isAtEnd {
            return wall.isValid ? ChicagoTime.instant(wall) : nil
        }
        guard scanner.skip(anyOf: "Tt") != nil, scanner.clock(into: &wall) else { return nil }
        if scanner.skip(".") || scanner.skip(",") {
            guard scanner.skipDigits() > 0 else { return nil }
        }
        guard wall.isValid else { return nil }
        if scanner.isAtEnd { return ChicagoTime.instant(wall) }

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
        let local = Int64(ChicagoTime.daysFromCivil(wall.year, wall.month, wall.day)) * 86_400
            + Int64(wall.hour * 3600 + wall.minute * 60 + wall.second)
        return Instant(secondsSince1970: local - Int64(offsetSeconds))
    }
}
