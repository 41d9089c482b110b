/// A date and time of day as a clock on a wall shows it, in no particular zone: what CTA's
/// timestamps without an offset name, and what an ISO 8601 answer spells before its offset.
/// Proleptic Gregorian calendar; the day arithmetic is H. Hinnant's.
public struct WallClock: Hashable, Sendable {
    public var year, month, day, hour, minute, second: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
    }

    /// The wall clock `seconds` after 1970-01-01 00:00 of the same wall (UTC plus an offset).
    public init(secondsSince1970 seconds: Int64) {
        let days = Self.floorDiv(seconds, 86_400)
        let secondsOfDay = Int(seconds - days * 86_400)
        (year, month, day) = Self.civil(daysSince1970: Int(days))
        (hour, minute, second) = (secondsOfDay / 3600, secondsOfDay / 60 % 60, secondsOfDay % 60)
    }

    public var isValid: Bool {
        (1...12).contains(month) && (1...Self.daysIn(year, month)).contains(day)
            && (0...23).contains(hour) && (0...59).contains(minute) && (0...60).contains(second)
    }

    /// Seconds from 1970-01-01 00:00 of the same wall: the instant this would be in UTC.
    public var secondsSince1970: Int64 {
        Int64(daysSince1970) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    public var daysSince1970: Int { Self.days(year, month, day) }

    /// 0 is Sunday.
    public var weekday: Int { Self.weekday(daysSince1970: daysSince1970) }

    /// `2015-02-14T14:35:00`.
    public var iso8601: String {
        var bytes: [UInt8] = []
        appendISO8601(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `iso8601`'s bytes, appended: a snapshot spells every alert's start and end this way, and
    /// one String made of these costs under half of one made by interpolating seven Strings.
    func appendISO8601(to bytes: inout [UInt8]) {
        bytes.reserveCapacity(bytes.count + 25)
        Self.appendDecimal(year, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        Self.appendTwo(month, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        Self.appendTwo(day, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        Self.appendTwo(hour, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        Self.appendTwo(minute, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        Self.appendTwo(second, to: &bytes)
    }

    /// At least two digits: a leading zero below 10.
    static func appendTwo(_ value: Int, to bytes: inout [UInt8]) {
        if value < 10 { bytes.append(UInt8(ascii: "0")) }
        appendDecimal(value, to: &bytes)
    }

    /// As `"\(value)"` spells it.
    static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) { bytes.append(contentsOf: String(value).utf8) }

    // MARK: Civil calendar arithmetic

    public static func days(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public static func civil(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
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

    public static func daysIn(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    /// 0 is Sunday (1970-01-01 was a Thursday).
    public static func weekday(daysSince1970 days: Int) -> Int { ((days % 7) + 11) % 7 }

    public static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
