import StopSheetCore
import StopSheetProtocol

/// A train sheet's `data` member: how fresh the alerts and the stations behind it are at the
/// moment of the answer. The encoded snapshot's sheets are kept without it (it moves with the
/// clock, they move with the data), and each answer and each notification writes it after their
/// members (`PreEncoded(_:data:)`).
///
/// Two sheets are the same sheet when their bytes without `data` are equal and their data are
/// in the same state (`sameState`): the age alone never makes a sheet change.
public struct SheetData: Sendable, Equatable {
    public var alerts: DataFreshness
    public var stations: DataFreshness
    public var facilities: DataFreshness
    /// The zone of `producedAt`: the generation's.
    public var zone: TimeZoneRules

    public init(alerts: DataFreshness, stations: DataFreshness, facilities: DataFreshness, zone: TimeZoneRules) {
        self.alerts = alerts
        self.stations = stations
        self.facilities = facilities
        self.zone = zone
    }

    public func sameState(as other: SheetData) -> Bool {
        alerts.sameState(as: other.alerts) && stations.sameState(as: other.stations) && facilities.sameState(as: other.facilities)
    }

    /// The `data` member's value.
    public var answer: Answer.SheetData {
        Answer.SheetData(alerts: alerts.answer(in: zone), stations: stations.answer(in: zone), facilities: facilities.answer(in: zone))
    }

    public var encoded: PreEncoded<Answer.SheetData> { PreEncoded(answer) }
}

extension DataFreshness {
    /// `producedAt` in `zone`.
    func answer(in zone: TimeZoneRules) -> Answer.Freshness {
        Answer.Freshness(loaded: loaded, ageSeconds: ageSeconds.map { Int($0) }, stale: stale, producedAt: producedAt.map(zone.iso8601), configured: configured)
    }
}
