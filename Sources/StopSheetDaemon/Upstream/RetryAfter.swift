import StopSheetCore

/// `Retry-After` on a `429` or `503` (RFC 9110 §10.2.3): how long the upstream asks the daemon to
/// wait before its next request. The refresher waits at least that long, whatever its interval
/// or backoff, and a `refresh` call inside the wait is answered with when it ends.
public enum RetryAfter {
    /// No upstream holds a refresher back longer than this: an hour, whatever it asks.
    public static let maxSeconds = 3600

    /// The statuses whose `Retry-After` is honoured.
    static func applies(to status: Int) -> Bool { status == 429 || status == 503 }

    /// The wait `value` asks for, in whole seconds from the response, at most `maxSeconds`; nil
    /// when it is neither form. Delta-seconds as they are; an HTTP-date counted from the response's
    /// own `Date` when it sent one (so the two clocks' skew cancels), else from `now`, the real
    /// time in seconds since 1970. A date in the past is 0.
    static func seconds(_ value: String, responseDate: String?, now: () -> Int64) -> Int? {
        let trimmed = value.trimmingSpaces
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            // Digits beyond any Int are still a wait longer than the cap.
            return min(Int(trimmed) ?? maxSeconds, maxSeconds)
        }
        guard let date = httpDate(trimmed) else { return nil }
        let from = responseDate.flatMap { httpDate($0.trimmingSpaces) } ?? now()
        return Int(min(max(0, date - from), Int64(maxSeconds)))
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// An HTTP-date in any of RFC 9110's three forms, as seconds since 1970 (UTC):
    /// `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT`, `Sun Nov  6 08:49:37 1994`.
    static func httpDate(_ text: String) -> Int64? {
        let parts = text.split { $0 == " " || $0 == "," || $0 == "-" || $0 == ":" }.map { $0.lowercased() }
        guard parts.count >= 7 else { return nil }
        let fields = parts.dropFirst() // the weekday
        let named = Array(fields.prefix(6))
        let asctime = months.contains(named[0])
        let (monthName, dayText, yearText, clock) = asctime
            ? (named[0], named[1], named[5], named[2...4])
            : (named[1], named[0], named[2], named[3...5])
        guard let month = months.firstIndex(of: monthName), let day = Int(dayText), var year = Int(yearText) else { return nil }
        let numbers = clock.compactMap { Int($0) }
        guard numbers.count == 3 else { return nil }
        // RFC 850's two-digit year: RFC 9110 reads one more than 50 years ahead as the past.
        if yearText.count == 2 { year += year < 70 ? 2000 : 1900 }
        let wall = WallClock(year: year, month: month + 1, day: day, hour: numbers[0], minute: numbers[1], second: numbers[2])
        return wall.isValid ? wall.secondsSince1970 : nil
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
