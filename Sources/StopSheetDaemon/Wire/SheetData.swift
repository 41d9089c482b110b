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

    /// The `data` member's value (`Answer.SheetData`).
    public var encoded: [UInt8] {
        .object { writer in
            writer.members(Answer.SheetData.CodingKeys.self) { writer, key in
                switch key {
                case .alerts: writer.object(key) { alerts.write(&$0, in: zone) }
                case .stations: writer.object(key) { stations.write(&$0, in: zone) }
                case .facilities: writer.object(key) { facilities.write(&$0, in: zone) }
                }
            }
        }
    }

    /// A train sheet's bytes: its members (`EncodedSnapshot`'s, or any sheet's without `data`)
    /// with `data`, given encoded, as the last member.
    static func sheet(_ members: EncodedMembers, data encodedData: [UInt8]) -> [UInt8] {
        .object { sheet in
            sheet.members(members)
            sheet.member(Answer.Sheet.CodingKeys.data, encoded: encodedData)
        }
    }
}

extension DataFreshness {
    /// Its members, `producedAt` in `zone`.
    func write<Sink>(_ writer: inout JSONWriter<Sink>, in zone: TimeZoneRules) {
        writer.members(Answer.Freshness.CodingKeys.self) { writer, key in
            switch key {
            case .loaded: writer.member(key, bool: loaded)
            case .ageSeconds: writer.member(key, int: ageSeconds.map { Int($0) })
            case .stale: writer.member(key, bool: stale)
            case .producedAt: writer.member(key, string: producedAt.map(zone.iso8601))
            case .configured: writer.member(key, bool: configured)
            }
        }
    }
}
