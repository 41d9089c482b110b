import StopSheetCore
import ZoneInfo

/// `watch`'s stamps: the time now on the agency's wall clock, in the zone the daemon shows
/// (`health`'s `timeZone`), its rules read from this machine's tzdata, so the machine's own `TZ`
/// never matters. A zone the daemon does not name, or that this machine's database lacks, gives
/// UTC marked `Z` (`14:35:07Z`): never a time that looks like the agency's and is not. Value
/// type; the main thread.
struct AgencyClock {
    /// The zone's name as the daemon gave it, nil when it gave none.
    let zoneName: String?
    private let rules: TimeZoneRules?
    /// Why the stamps are UTC, when they are: said once, as the zone is taken.
    let problem: String?

    init(zoneName: String?) {
        self.zoneName = zoneName
        guard let zoneName else {
            (rules, problem) = (nil, "the daemon does not know the agency's time zone yet; times are UTC (Z)")
            return
        }
        do {
            (rules, problem) = (try TimeZoneDatabase.rules(zoneName), nil)
        } catch {
            (rules, problem) = (nil, "the daemon's time zone: \(error); times are UTC (Z), not the agency's")
        }
    }

    /// `14:35:07`, or `14:35:07Z` in UTC.
    func stamp(at now: Instant) -> String {
        let wall = (rules ?? .utc).wallClock(now)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(wall.hour)):\(two(wall.minute)):\(two(wall.second))" + (rules == nil ? "Z" : "")
    }
}
