import StopSheetCore
import StopSheetProtocol

/// A train sheet's `data` member: how fresh the alerts and the stations behind it are at the
/// moment of the answer. The encoded snapshot's sheets leave it out (it moves with the clock,
/// they move with the data); it is appended to each answer, and to each notification.
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

    public var encoded: [UInt8] { AnswerEncoding.encode(answer) }

    /// A train sheet's bytes: its members (`EncodedSnapshot`'s, or any sheet's without `data`)
    /// with `data`, given encoded, as the last member: `Answer.Sheet`'s last, which a test holds.
    static func sheet(_ members: EncodedMembers, data encodedData: [UInt8]) -> [UInt8] {
        .object { sheet in
            sheet.members(members)
            sheet.member(Answer.Sheet.CodingKeys.data, encoded: encodedData)
        }
    }
}

extension DataFreshness {
    /// `producedAt` in `zone`.
    func answer(in zone: TimeZoneRules) -> Answer.Freshness {
        Answer.Freshness(loaded: loaded, ageSeconds: ageSeconds.map { Int($0) }, stale: stale, producedAt: producedAt.map(zone.iso8601), configured: configured)
    }
}
