import StopSheetCore
import ZoneInfo

/// The zones of the daemon's times (protocol.md, "Time zone"): the one every time is shown in,
/// and Chicago's, which reads CTA's wall-clock timestamps whatever is shown. Immutable; any thread.
public struct TimeZones: Sendable, Equatable {
    /// `CTATime.zoneIdentifier`'s rules: CTA's formats, and the zone shown when nothing else says.
    public let chicago: TimeZoneRules
    /// `--time-zone`.
    public let configured: TimeZoneRules?

    public init(configured: TimeZoneRules?) throws(TimeZoneDatabase.Failure) {
        chicago = try TimeZoneDatabase.rules(CTATime.zoneIdentifier)
        self.configured = configured
    }

    /// The zone every time is shown in, chosen here alone: `--time-zone`, else the station
    /// feed's `agency_timezone` (`feed`), else Chicago. A feed's zone that the database does
    /// not have is logged and passed over. `current` is reused when it is the one chosen.
    public func shown(feed: String?, current: TimeZoneRules?) -> TimeZoneRules {
        if let configured { return configured }
        guard let feed, feed != chicago.identifier else { return chicago }
        if let current, current.identifier == feed { return current }
        do {
            return try TimeZoneDatabase.rules(feed)
        } catch {
            Log.warning("the station feed's agency_timezone is unusable, showing \(chicago.identifier) time: \(error)", [("STOPSHEET_EVENT", "time_zone_unknown")])
            return chicago
        }
    }
}
