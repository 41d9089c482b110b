import StopSheetCore

/// An alert's period as a person reads it: `Sat 14 Feb 2015 14:35 – until further notice`,
/// `Wed 2 Dec 2026 12:33 – 18:33`. In the agency's zone: the wall clock the daemon wrote in the
/// `start`/`end` ISO 8601 strings before their offset (protocol.md, "Time zone"), so this
/// machine's own zone never matters. A string without an offset, or unreadable, is shown as it came.
enum AlertDates {
    static func period(start: String?, end: String?) -> TerminalText? {
        switch (start, end) {
        case (nil, nil): return nil
        case (let start?, nil): return "\(moment(start)) – until further notice"
        case (nil, let end?): return "until \(moment(end))"
        case (let start?, let end?):
            if let from = wallClock(start), let to = wallClock(end), from.daysSince1970 == to.daysSince1970 {
                return "\(moment(start)) – \(clock(to))"
            }
            return "\(moment(start)) – \(moment(end))"
        }
    }

    /// `Sat 14 Feb 2015 14:35`.
    static func moment(_ iso: String) -> TerminalText {
        guard let wall = wallClock(iso) else { return TerminalText(iso) }
        return "\(weekdays[wall.weekday]) \(wall.day) \(months[wall.month - 1]) \(wall.year) \(clock(wall))"
    }

    private static func wallClock(_ iso: String) -> WallClock? {
        guard let (wall, offset) = ISO8601Time.parse(iso), offset != nil else { return nil }
        return wall
    }

    private static func clock(_ wall: WallClock) -> TerminalText {
        "\(two(wall.hour)):\(two(wall.minute))"
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
