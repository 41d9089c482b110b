import StopSheetCore

/// A train sheet's `data` member: how fresh the alerts and the stations behind it are at the
/// moment of the answer. The encoded snapshot's sheets leave it out (it moves with the clock,
/// they move with the data); it is appended to each answer, and to each notification.
///
/// Two sheets are the same sheet when their bytes without `data` are equal and their data are
/// in the same state (`sameState`): the age alone never makes a sheet change.
public struct SheetData: Sendable, Equatable {
    public var alerts: DataFreshness
    public var stations: DataFreshness
    /// The zone of `producedAt`: the generation's.
    public var zone: TimeZoneRules

    public init(alerts: DataFreshness, stations: DataFreshness, zone: TimeZoneRules) {
        self.alerts = alerts
        self.stations = stations
        self.zone = zone
    }

    public func sameState(as other: SheetData) -> Bool {
        alerts.sameState(as: other.alerts) && stations.sameState(as: other.stations)
    }

    public var json: JSON { ["alerts": alerts.json(in: zone), "stations": stations.json(in: zone)] }

    /// A train sheet's bytes: its members (`EncodedSnapshot`'s, or any sheet's without `data`)
    /// with `data`, given encoded, as the last member.
    static func sheet(_ members: EncodedMembers, data encodedData: [UInt8]) -> [UInt8] {
        .object { sheet in
            sheet.members(members)
            sheet.member(.data, encoded: encodedData)
        }
    }
}

extension DataFreshness {
    public func json(in zone: TimeZoneRules) -> JSON {
        ["loaded": .bool(loaded), "ageSeconds": ageSeconds.map { .int(Int($0)) } ?? .null, "stale": .bool(stale), "producedAt": zone.json(producedAt),
         "configured": .bool(configured)]
    }
}
