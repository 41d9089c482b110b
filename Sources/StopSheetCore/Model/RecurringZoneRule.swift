/// A zone's rule for the years after its database's last listed transition: the POSIX `TZ`
/// string at the end of a TZif file (RFC 8536 §3.3), such as `CST6CDT,M3.2.0,M11.1.0`, read by
/// `TZifDecoder`. Standard time alone, or standard and daylight time with the day and time
/// each begins (southern zones' daylight time spans the new year).
struct RecurringZoneRule: Sendable, Equatable {
    /// Seconds east of UTC (the POSIX string counts west).
    var standardOffset: Int
    var daylight: Daylight?

    struct Daylight: Sendable, Equatable {
        var offset: Int
        var start: Change
        var end: Change
    }

    /// A day of the year and the local time on it (in the time that is ending) when clocks change.
    struct Change: Sendable, Equatable {
        var day: Day
        /// Seconds after local midnight; RFC 8536 allows −167 to 167 hours.
        var time: Int
    }

    enum Day: Sendable, Equatable {
        /// `Jn`: 1–365, February 29 never counted.
        case julian(Int)
        /// `n`: 0–365, February 29 counted.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `d` (0 Sunday) of week `w` (5: the last) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Int)

        func daysSince1970(in year: Int) -> Int {
            let newYear = WallClock.days(year, 1, 1)
            switch self {
            case .julian(let n): return newYear + n - 1 + (WallClock.isLeap(year) && n >= 60 ? 1 : 0)
            case .zeroBased(let n): return newYear + n
            case .monthWeekDay(let month, let week, let weekday):
                let first = WallClock.days(year, month, 1)
                var day = first + (weekday - WallClock.weekday(daysSince1970: first) + 7) % 7 + 7 * (week - 1)
                while day >= first + WallClock.daysIn(year, month) { day -= 7 }
                return day
            }
        }
    }

    func utcOffset(at t: Int64) -> Int {
        guard let daylight else { return standardOffset }
        let year = WallClock(secondsSince1970: t + Int64(standardOffset)).year
        func instant(_ change: Change, from offset: Int) -> Int64 {
            Int64(change.day.daysSince1970(in: year)) * 86_400 + Int64(change.time - offset)
        }
        let start = instant(daylight.start, from: standardOffset)
        let end = instant(daylight.end, from: daylight.offset)
        let inDaylight = start < end ? (start <= t && t < end) : !(end <= t && t < start)
        return inDaylight ? daylight.offset : standardOffset
    }
}
