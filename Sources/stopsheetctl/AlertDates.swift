import StopSheetCore

/// An alert's period in Chicago time, as a person reads it: `Sat 14 Feb 2015 14:35 – until
/// further notice`, `Wed 2 Dec 2026 12:33 – 18:33`. From the `start`/`end` ISO 8601 strings
/// (with their offset); one the client cannot read is shown as it came.
enum AlertDates {
    static func period(start: JSON?, end: JSON?) -> TerminalText? {
        let startText = start?.stringValue, endText = end?.stringValue
        switch (startText, endText) {
        case (nil, nil): return nil
        case (let start?, nil): return "\(moment(start)) – until further notice"
        case (nil, let end?): return "until \(moment(end))"
        case (let start?, let end?):
            if let from = ISO8601Time.instant(start), let to = ISO8601Time.instant(end),
                day(ChicagoTime.wallClock(from)) == day(ChicagoTime.wallClock(to))
            {
                return "\(moment(start)) – \(clock(ChicagoTime.wallClock(to)))"
            }
            return "\(moment(start)) – \(moment(end))"
        }
    }

    /// `Sat 14 Feb 2015 14:35`.
    static func moment(_ iso: String) -> TerminalText {
        guard let instant = ISO8601Time.instant(iso) else { return TerminalText(iso) }
        let wall = ChicagoTime.wallClock(instant)
        let localDays = (instant.secondsSince1970 + ChicagoTime.utcOffset(at: instant)).dividedRoundingDown(by: 86_400)
        let weekday = weekdays[Int(((localDays % 7) + 11) % 7)]
        return "\(weekday) \(wall.day) \(months[wall.month - 1]) \(wall.year) \(clock(wall))"
    }

    /// `14:35` (`14:35:07` with `seconds`) in Chicago time.
    static func clock(_ instant: Instant, seconds: Bool = false) -> TerminalText {
        let wall = ChicagoTime.wallClock(instant)
        return seconds ? clock(wall) + ":\(two(wall.second))" : clock(wall)
    }

    private static func clock(_ wall: ChicagoTime.WallClock) -> TerminalText {
        "\(two(wall.hour)):\(two(wall.minute))"
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func day(_ wall: ChicagoTime.WallClock) -> [Int] { [wall.year, wall.month, wall.day] }

    // 1970-01-01 was a Thursday: day 0 is index 4.
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}

private extension Int64 {
    func dividedRoundingDown(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
