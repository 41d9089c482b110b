/// GTFS `stops.txt` → platforms and entrances, grouped later by `StationDirectory`.
///
/// - Stations are `location_type=1` rows; a station's name is its `stop_name`.
/// - Platforms are child stops (`location_type` 0 or empty) of a station. With a whole feed, a
///   child is a platform when a train trip stops there, and its lines are those trips' routes.
/// - With `stops.txt` alone every such child is a platform, its lines unknown — except in CTA's
///   own `stops.txt`, which also parents bus bays (`14xxx`/`17xxx`) to rail stations. It is told
///   by its numbering, which the data states: every station a five-digit `4xxxx` map id and a
///   child numbered as a CTA rail platform (`3xxxx`). There the `3xxxx` children are the
///   platforms, as before, and the agency is CTA; otherwise nothing names the agency.
/// - Entrances are `location_type=2` children of a station. Generic nodes (3) and boarding areas
///   (4, children of a platform) are never platforms: they resolve to their station, so an alert
///   naming one reaches it.
/// - `wheelchair_boarding`, as the GTFS reference defines it: on a station `1` accessible, `2`
///   not, `0`/empty unknown; on any other stop `1` accessible, `2` not, `0`/empty its parent's
///   value, through the parents (a boarding area's platform, then its station). OpenTripPlanner
///   #2493 reads `0` there as unknown: that is wrong.
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

    /// `feed` is what `GTFSStopLines` read from the whole feed, or nil for `stops.txt` alone.
    public static func decode(_ bytes: [UInt8], feed: GTFSStopLines? = nil,
                              limits: DecodingLimits = .init()) throws(DecodingFailure) -> DecodedStations {
        let linesByStopID = feed?.linesByStopID
        try UpstreamBody.validateUTF8(bytes)
        var table = GTFSTableReader(name: "stops.txt", required: ["stop_id"],
                                    optional: ["stop_name", "location_type", "parent_station", "wheelchair_boarding"], maxRows: limits.maxItems)
        var rows: [Row] = []
        let collect = { (row: GTFSTableReader.Row) throws(DecodingFailure) in rows.append(try Self.row(row)) }
        try table.consume(bytes, collect)
        try table.finish(collect)

        var byID: [String: Row] = [:]
        for row in rows where byID[row.id] == nil { byID[row.id] = row }
        let stations = byID.filter { $0.value.locationType == 1 }
        let ctaNumbering = feed == nil && !stations.isEmpty && stations.keys.allSatisfy { isCTANumber($0, first: "4") }
            && rows.contains { $0.locationType == 0 && stations[$0.parent] != nil && isCTANumber($0.id, first: "3") }
        var platforms: [Platform] = []
        var entrances: [Entrance] = []
        var within: [String: String] = [:]
        var seen: Set<String> = []
        for row in rows where row.locationType != 1 {
            // A boarding area's parent is a platform; its station is the platform's parent.
            let parent = byID[row.parent]
            guard let station = stations[row.parent] ?? (row.locationType == 4 ? parent.flatMap { stations[$0.parent] } : nil),
                  seen.insert(row.id).inserted else { continue }
            // Inheritance: an unknown is the parent's value, up to the station (maybe unknown too).
            let stepFree = row.wheelchair ?? (parent?.locationType == 1 ? nil : parent?.wheelchair) ?? station.wheelchair ?? nil
            switch row.locationType {
            case 0:
                let lines: [RouteID]
                if let linesByStopID {
                    guard let served = linesByStopID[row.id], !served.isEmpty else { continue }
                    lines = served
                } else {
                    guard !ctaNumbering || isCTANumber(row.id, first: "3") else { continue }
                    lines = []
                }
                platforms.append(Platform(stopID: row.id, stationID: station.id, stationName: station.name, routes: lines, stepFree: stepFree))
            case 2:
                entrances.append(Entrance(id: row.id, stationID: station.id, name: UpstreamText.trimmed(row.name), stepFree: stepFree))
            case 3, 4:
                within[row.id] = station.id
            default:
                continue
            }
        }
        let agencies = feed?.agencies ?? (ctaNumbering ? [.cta] : [])
        return DecodedStations(platforms: platforms, entrances: entrances, linesKnown: feed != nil,
                               lines: feed?.lines ?? [], agencies: agencies, stopsWithin: within, language: feed?.language)
    }

    /// CTA's numbering: five digits, the first `first` (`4` a station's map id, `3` a rail platform).
    static func isCTANumber(_ id: String, first: Character) -> Bool {
        let utf8 = Array(id.utf8)
        return utf8.count == 5 && utf8[0] == first.asciiValue! && utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
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
