/// America/Chicago wall-clock time, computed from the US daylight-saving rules rather than a
/// time-zone database: the core stays pure (no file reads), and CTA data only ever needs Chicago.
///
/// Rules: CST is UTC−6, CDT is UTC−5. Since 2007 CDT runs from the second Sunday of March,
/// 02:00 CST, to the first Sunday of November, 02:00 CDT; from 1987 to 2006 from the first Sunday
/// of April to the last Sunday of October. A wall-clock time in the repeated autumn hour is read
/// as CDT (the first occurrence); one in the skipped spring hour is read as CST.
public enum ChicagoTime {
    public struct WallClock: Hashable, Sendable {
        public var year, month, day, hour, minute, second: Int

        public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
            (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
        }

        public var isValid: Bool {
            (1...12).contains(month) && (1...daysInMonth(year, month)).contains(day)
                && (0...23).contains(hour) && (0...59).contains(minute) && (0...60).contains(second)
        }
    }

    /// The instant a Chicago wall-clock time names.
    public static func instant(_ wall: WallClock) -> Instant {
        let local = Int64(daysFromCivil(wall.year, wall.month, wall.day)) * 86_400
            + Int64(wall.hour * 3600 + wall.minute * 60 + wall.second)
        let asDaylight = Instant(secondsSince1970: local + 5 * 3600)
        if isDaylightTime(asDaylight) { return asDaylight }
        return Instant(secondsSince1970: local + 6 * 3600)
    }

    /// Offset from UTC in seconds at an instant: −18000 (CDT) or −21600 (CST).
    public static func utcOffset(at instant: Instant) -> Int64 {
        isDaylightTime(instant) ? -5 * 3600 : -6 * 3600
    }

    public static func wallClock(_ instant: Instant) -> WallClock {
        let local = instant.secondsSince1970 + utcOffset(at: instant)
        let days = floorDiv(local, 86_400)
        let secondsOfDay = Int(local - days * 86_400)
        let (year, month, day) = civilFromDays(Int(days))
        return WallClock(year: year, month: month, day: day, hour: secondsOfDay / 3600,
                         minute: secondsOfDay / 60 % 60, second: secondsOfDay % 60)
    }

    /// `2015-02-14T14:35:00-06:00`.
    public static func format(_ instant: Instant) -> String {
        let wall = wallClock(instant)
        let offset = utcOffset(at: instant) / 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let sign = offset < 0 ? "-" : "+"
        let offsetText = "\(sign)\(two(Int(abs(offset)) / 60)):\(two(Int(abs(offset)) % 60))"
        return "\(wall.year)-\(two(wall.month))-\(two(wall.day))T\(two(wall.hour)):\(two(wall.minute)):\(two(wall.second))\(offsetText)"
    }

    static func isDaylightTime(_ instant: Instant) -> Bool {
        let year = civilFromDays(Int(floorDiv(instant.secondsSince1970 - 6 * 3600, 86_400))).year
        guard year >= 1987 else { return false }
        let (startDay, endDay): (Int, Int)
        if year >= 2007 {
            startDay = nthSunday(year, month: 3, n: 2)
            endDay = nthSunday(year, month: 11, n: 1)
        } else {
            startDay = nthSunday(year, month: 4, n: 1)
            endDay = lastSunday(year, month: 10)
        }
        // 02:00 CST = 08:00 UTC; 02:00 CDT = 07:00 UTC.
        let start = Int64(startDay) * 86_400 + 8 * 3600
        let end = Int64(endDay) * 86_400 + 7 * 3600
        return instant.secondsSince1970 >= start && instant.secondsSince1970 < end
    }

    // MARK: Civil calendar arithmetic (proleptic Gregorian; H. Hinnant's algorithms)

    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Weekday of a day count, 0 = Sunday (1970-01-01 was a Thursday).
    static func weekday(_ days: Int) -> Int { ((days % 7) + 11) % 7 }

    static func nthSunday(_ year: Int, month: Int, n: Int) -> Int {
        let first = daysFromCivil(year, month, 1)
        return first + (7 - weekday(first)) % 7 + 7 * (n - 1)
    }

    static func lastSunday(_ year: Int, month: Int) -> Int {
        let last = daysFromCivil(year, month, daysInMonth(year, month))
        return last - weekday(last)
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
