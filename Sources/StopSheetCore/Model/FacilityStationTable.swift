/// A deployer's table of the stations a lift-status feed names in its own words
/// (`--facilities-stations-url`, CSV `station_ref,stop_id`): each reference (DB FaSta's
/// `stationnumber`, IDFM's `ZdcId`, WMATA's `StationCode`…) with the stops of the station data it
/// is. One reference may have several rows (DB's Berlin Hbf has two GTFS ids): a unit naming it is
/// at the station of each (`FacilityJoin`).
public struct FacilityStationTable: Hashable, Sendable {
    public struct Row: Hashable, Sendable {
        public var stationRef: String
        public var stopID: String
        /// The row's line in the body, for a notice about it.
        public var line: Int

        public init(stationRef: String, stopID: String, line: Int) {
            (self.stationRef, self.stopID, self.line) = (stationRef, stopID, line)
        }
    }

    /// In the order given.
    public let rows: [Row]
    private let byRef: [String: [String]]

    public init(rows: [Row]) {
        self.rows = rows
        var byRef: [String: [String]] = [:]
        for row in rows where byRef[row.stationRef]?.contains(row.stopID) != true { byRef[row.stationRef, default: []].append(row.stopID) }
        self.byRef = byRef
    }

    public static let empty = FacilityStationTable(rows: [])

    public var isEmpty: Bool { rows.isEmpty }

    /// The stop ids a reference names, in the table's order; empty when no row has it.
    public func stopIDs(for stationRef: String) -> [String] { byRef[stationRef] ?? [] }

    /// A notice for each row whose `stop_id` is no station's of `stations`: the row places no unit.
    public func notices(against stations: StationDirectory) -> FeedNotices {
        var notices = FeedNotices()
        for row in rows where stations.station(for: row.stopID) == nil {
            notices.add(Self.file, line: row.line,
                        "stop_id '\(UpstreamText.quoted(row.stopID))' of station_ref '\(UpstreamText.quoted(row.stationRef))' names no station of the station data: row unused")
        }
        return notices
    }

    /// How notices name the table.
    public static let file = "stations.csv"

    public static func == (lhs: FacilityStationTable, rhs: FacilityStationTable) -> Bool { lhs.rows == rhs.rows }
    public func hash(into hasher: inout Hasher) { hasher.combine(rows) }
}
