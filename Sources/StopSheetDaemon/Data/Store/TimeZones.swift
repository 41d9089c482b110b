import StopSheetCore
import ZoneInfo

/// The zones of the daemon's times (protocol.md, "Time zone"): the one every time is shown in,
/// and Chicago's, which reads CTA's wall-clock timestamps whatever is shown. Immutable; any thread.
public struct TimeZones: Sendable, Equatable {
    /// `CTATime.zoneIdentifier`'s rules: CTA's wall-clock timestamps are read with them.
    public let chicago: TimeZoneRules
    /// `--time-zone`.
    public let configured: TimeZoneRules?

    public init(configured: TimeZoneRules?) throws(TimeZoneDatabase.Failure) {
        chicago = try TimeZoneDatabase.rules(CTATime.zoneIdentifier)
        self.configured = configured
    }

    /// The zone every time is shown in, chosen here alone: `--time-zone`, else the zone the data
    /// names (`data`: the station feed's `agency_timezone`, Chicago for CTA's own formats, else
    /// the alert feed's), else none: `TimeZoneRules.notKnown`, UTC written with `Z`. Chicago is
    /// never a guess. A data zone the database does not have is logged and passed over.
    /// `current` is reused when it is the one chosen.
    public func shown(data: String?, current: TimeZoneRules?) -> TimeZoneRules {
        if let configured { return configured }
        guard let data else { return .notKnown }
        if data == chicago.identifier { return chicago }
        if let current, current.isKnown, current.identifier == data { return current }
        do {
            return try TimeZoneDatabase.rules(data)
        } catch {
            Log.warning("the data's time zone is unusable, times are shown in UTC: \(error)", [JournalEvent.timeZoneUnknown.field])
            return .notKnown
        }
    }

    /// The journal's words for the zone shown: its `TIME_ZONE=` field, or, before any is known,
    /// a sentence saying so (and no field: no zone is claimed).
    public static func journal(_ zone: TimeZoneRules) -> (words: String, fields: [(String, String)]) {
        guard let name = zone.name else { return ("time zone not known yet: times are UTC (Z) until the data or --time-zone names one", []) }
        return ("times in \(name)", [("TIME_ZONE", name)])
    }

    /// Says in the journal that the zone shown changed (the data named one, or a reload).
    static func logShown(_ zone: TimeZoneRules) {
        let (words, fields) = journal(zone)
        Log.notice(zone.isKnown ? "\(words) from now on" : words, [JournalEvent.timeZone.field] + fields)
    }
}
