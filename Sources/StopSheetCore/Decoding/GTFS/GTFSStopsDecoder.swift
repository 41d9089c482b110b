/// GTFS `stops.txt` → platforms and entrances, grouped later by `StationDirectory`.
///
/// - Stations are `location_type=1` rows; a station's name is its `stop_name`.
/// - Platforms are child stops (`location_type` 0 or empty) of a station. With a whole feed, a
///   child is a platform when a rail trip stops there, and its lines are those trips' routes.
///   With `stops.txt` alone nothing says which children are rail platforms: CTA numbers them
///   `3xxxx` (it also parents bus bays, `14xxx`/`17xxx`, to rail stations), so that numbering
///   decides and lines are unknown — never guessed from names.
/// - Entrances are `location_type=2` children of a station.
/// - `wheelchair_boarding`, as the GTFS reference defines it: on a station `1` accessible, `2`
///   not, `0`/empty unknown; on a platform or entrance `1` accessible, `2` not, `0`/empty the
///   parent station's value (OpenTripPlanner #2493 reads `0` there as unknown: that is wrong).
public enum GTFSStopsDecoder {
    private enum Column: Int, CaseIterable {
        case stopID, stopName, locationType, parentStation, wheelchairBoarding
    }

    private struct Row {
        var id: String
        var name: String
        var locationType: Int
        var parent: String
        var wheelchair: Bool??
    }

    /// `linesByStopID` is what `GTFSStopLines` read from the feed, or nil for `stops.txt` alone.
    public static func decode(_ bytes: [UInt8], linesByStopID: [String: [RouteID]]? = nil,
                              limits: DecodingLimits = .init()) throws(DecodingFailure) -> DecodedStations {
        try UpstreamBody.validateUTF8(bytes)
        var table = GTFSTableReader(name: "stops.txt", required: ["stop_id"],
                                    optional: ["stop_name", "location_type", "parent_station", "wheelchair_boarding"], maxRows: limits.maxItems)
        var rows: [Row] = []
        let collect = { (row: GTFSTableReader.Row) throws(DecodingFailure) in rows.append(try Self.row(row)) }
        try table.consume(bytes, collect)
        try table.finish(collect)

        var stations: [String: Row] = [:]
        for row in rows where row.locationType == 1 && stations[row.id] == nil { stations[row.id] = row }
        var platforms: [Platform] = []
        var entrances: [Entrance] = []
        var seen: Set<String> = []
        for row in rows where row.locationType != 1 {
            guard let station = stations[row.parent], seen.insert(row.id).inserted else { continue }
            // Inheritance: a child's unknown is its station's value (which may itself be unknown).
            let stepFree = row.wheelchair ?? station.wheelchair ?? nil
            switch row.locationType {
            case 0:
                let lines: [RouteID]
                if let linesByStopID {
                    guard let served = linesByStopID[row.id], !served.isEmpty else { continue }
                    lines = served
                } else {
                    guard isCTARailPlatformID(row.id) else { continue }
                    lines = []
                }
                platforms.append(Platform(stopID: row.id, stationID: station.id, stationName: station.name, routes: lines, stepFree: stepFree))
            case 2:
                entrances.append(Entrance(id: row.id, stationID: station.id, name: UpstreamText.trimmed(row.name), stepFree: stepFree))
            default:
                continue
            }
        }
        return DecodedStations(platforms: platforms, entrances: entrances, linesKnown: linesByStopID != nil)
    }

    /// CTA's rail platform numbering: five digits starting with 3.
    static func isCTARailPlatformID(_ id: String) -> Bool {
        let utf8 = Array(id.utf8)
        return utf8.count == 5 && utf8[0] == UInt8(ascii: "3") && utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    private static func row(_ row: GTFSTableReader.Row) throws(DecodingFailure) -> Row {
        func path(_ column: String) -> String { "stops.txt row \(row.number) column \(column)" }
        let id = row.text(Column.stopID.rawValue)
        guard !id.isEmpty else { throw .malformed(path: path("stop_id"), reason: "empty") }
        let typeText = row.text(Column.locationType.rawValue)
        guard let locationType = typeText.isEmpty ? 0 : Int(typeText) else {
            throw .malformed(path: path("location_type"), reason: "'\(typeText.prefix(40))' is not a number")
        }
        let wheelchair: Bool??
        switch row.text(Column.wheelchairBoarding.rawValue) {
        case "1": wheelchair = .some(true)
        case "2": wheelchair = .some(false)
        case "0", "": wheelchair = nil
        case let other: throw .malformed(path: path("wheelchair_boarding"), reason: "'\(other.prefix(40))' is not 0, 1 or 2")
        }
        return Row(id: id, name: row.text(Column.stopName.rawValue), locationType: locationType,
                   parent: row.text(Column.parentStation.rawValue), wheelchair: wheelchair)
    }
}
