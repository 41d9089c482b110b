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

    public init(alerts: DataFreshness, stations: DataFreshness) {
        self.alerts = alerts
        self.stations = stations
    }

    public func sameState(as other: SheetData) -> Bool {
        alerts.sameState(as: other.alerts) && stations.sameState(as: other.stations)
    }

    public var json: JSON { ["alerts": alerts.json, "stations": stations.json] }

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
    public var json: JSON {
        ["loaded": .bool(loaded), "ageSeconds": ageSeconds.map { .int(Int($0)) } ?? .null, "stale": .bool(stale), "configured": .bool(configured)]
    }
}
