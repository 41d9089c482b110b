/// GTFS `pathways.txt` and `levels.txt`, with the locations of `stops.txt` they join, → one
/// `StationTopology` per station (docs/stop-sheet.md §2.4).
///
/// - Every field the reference documents is read; of extension columns only `facility_id` and
///   `pathway_code` (units alerts name) are.
/// - `stops.txt` is read here on its own for what only the topology needs (roles, a boarding
///   area's platform, an entrance's own `wheelchair_boarding`, `level_id`); its bad rows are
///   the stops decoder's to report and are simply not locations here.
/// - A bad row is a notice (`FeedNotices`), never a failure: one missing its id, naming no location of a
///   station (or a station itself), joining two stations, repeating an id, or with a mode or
///   direction the reference does not define is skipped; one with a bad measure (length,
///   traversal time, stair count, slope, width) is kept without that value, since the graph does
///   not need it and an elevator should not vanish over its length.
/// - A deployer's map (`--topology-url`, `within:` the station data's platforms) hangs its
///   entrances, nodes and boarding areas under the station data's own station and platform ids:
///   those are the map's stations and platforms, and rows of its `stops.txt` repeating them are
///   matched by id, not added. A row that is a station or platform the station data lacks, or
///   whose parent is one, is a notice, and no location.
/// - A `pathways.txt` or `levels.txt` that cannot be read at all (no header, a missing required
///   column, not UTF-8, too many rows) is one notice and no pathways (no levels): stations then
///   fall back to what `stops.txt` says.
public enum GTFSPathwaysDecoder {
    public static let pathwaysFile = "pathways.txt"
    public static let levelsFile = "levels.txt"

    /// What the three tables give.
    public struct Decoded: Sendable, Equatable {
        /// Every station with locations, by station id; a station without pathways has none.
        public var stations: [String: StationTopology]
        public var levels: [Level]
        public var notices: FeedNotices

        public init(stations: [String: StationTopology] = [:], levels: [Level] = [], notices: FeedNotices = .init()) {
            self.stations = stations
            self.levels = levels
            self.notices = notices
        }
    }

    private struct Stop {
        var locationType: Int
        var parent: String
        var name: String
        var description: String
        var ownWheelchair: String
        var levelID: String
        /// Its line in `stops.txt`; 0 for a station or platform of the station data.
        var line = 0
    }

    /// `pathways` or `levels` nil: the feed has no such file. `within`: the station data's
    /// platforms, for a deployer's map; nil for the feed's own tables. Throws only for `stops.txt`.
    public static func decode(stops: [UInt8], pathways: [UInt8]?, levels: [UInt8]? = nil, within known: [Platform]? = nil,
                              limits: DecodingLimits = .init()) throws(DecodingFailure) -> Decoded {
        var decoded = Decoded()
        let stopsByID = try readStops(stops, seeds: known.map(seeds) ?? [], limits: limits)
        // Each location's station and role.
        var stationOf: [String: String] = [:]
        var locations: [String: [StationTopology.Location]] = [:]
        for (id, stop) in stopsByID.order.map({ ($0, stopsByID.rows[$0]!) }) {
            let role: StationTopology.Role
            var station = stop.parent
            switch stop.locationType {
            case 0: role = .platform
            case 2: role = .entrance(streetEnd: stop.ownWheelchair != "2")
            case 3: role = .genericNode
            case 4:
                guard let platform = stopsByID.rows[stop.parent], platform.locationType == 0 else {
                    if known != nil { decoded.notices.add("stops.txt", line: stop.line, "boarding area '\(id.prefix(40))': parent_station '\(stop.parent.prefix(40))' is no platform of the station data") }
                    continue
                }
                role = .boardingArea(platformID: stop.parent)
                station = platform.parent
            default:
                // A deployer's map has no stations of its own: its station rows repeat the data's.
                if known != nil, stop.locationType == 1, stop.line > 0 { decoded.notices.add("stops.txt", line: stop.line, "station '\(id.prefix(40))' is not in the station data") }
                continue
            }
            // A deployer's row hangs under the station data's own ids, or is no location.
            if known != nil, stop.line > 0 {
                let unknown = stop.locationType == 0 ? "platform '\(id.prefix(40))' is not in the station data"
                    : stopsByID.rows[station].map { $0.line != 0 || $0.locationType != 1 } ?? true
                    ? "'\(id.prefix(40))': station '\(station.prefix(40))' is not in the station data"
                    : stop.locationType == 4 && stopsByID.rows[stop.parent]?.line != 0
                    ? "boarding area '\(id.prefix(40))': platform '\(stop.parent.prefix(40))' is not in the station data" : nil
                if let unknown {
                    decoded.notices.add("stops.txt", line: stop.line, unknown)
                    continue
                }
            }
            guard stopsByID.rows[station]?.locationType == 1 else { continue }
            stationOf[id] = station
            locations[station, default: []].append(.init(id: id, role: role, name: stop.name, description: stop.description, levelID: stop.levelID.isEmpty ? nil : stop.levelID))
        }

        var pathwaysByStation: [String: [Pathway]] = [:]
        if let pathways {
            var read: [(station: String, pathway: Pathway)] = []
            var ids: Set<String> = []
            let complete = readTable(pathways, name: pathwaysFile, required: ["pathway_id", "from_stop_id", "to_stop_id", "pathway_mode", "is_bidirectional"],
                                     optional: ["length", "traversal_time", "stair_count", "max_slope", "min_width", "signposted_as",
                                                "reversed_signposted_as", "facility_id", "pathway_code"],
                                     limits: limits, notices: &decoded.notices) { row, notices in
                guard let found = Self.pathway(row, stops: stopsByID.rows, stationOf: stationOf, notices: &notices) else { return }
                // A repeated pathway_id keeps its first row, as a repeated stop_id does.
                guard ids.insert(found.pathway.id).inserted else {
                    return notices.add(pathwaysFile, line: row.line, "pathway_id '\(found.pathway.id.prefix(40))' repeats an earlier row")
                }
                read.append(found)
            }
            if complete {
                for (station, pathway) in read { pathwaysByStation[station, default: []].append(pathway) }
            }
        }
        if let levels {
            var levelIDs: Set<String> = []
            var read: [Level] = []
            let complete = readTable(levels, name: levelsFile, required: ["level_id", "level_index"], optional: ["level_name"],
                                     limits: limits, notices: &decoded.notices) { row, notices in
                let id = row.text(0), indexText = row.text(1)
                func notice(_ problem: String) { notices.add(levelsFile, line: row.line, problem) }
                guard !id.isEmpty else { return notice("empty level_id") }
                guard let index = Double(indexText), index.isFinite else { return notice("level_index '\(indexText.prefix(40))' is not a number") }
                guard levelIDs.insert(id).inserted else { return notice("level_id '\(id.prefix(40))' repeats an earlier row") }
                let name = row.text(2)
                read.append(Level(id: id, index: index, name: name.isEmpty ? nil : name))
            }
            if complete { decoded.levels = read }
        }
        // The names of the levels a station's locations are on: its map's places (`FacilityPlacement`).
        let levelNames = Dictionary(decoded.levels.compactMap { level in level.name.map { (level.id, $0) } }, uniquingKeysWith: { first, _ in first })
        for (station, members) in locations {
            var names: [String] = []
            for name in members.compactMap({ $0.levelID.flatMap { levelNames[$0] } }) where !names.contains(name) { names.append(name) }
            decoded.stations[station] = StationTopology(stationID: station, locations: members, pathways: pathwaysByStation[station] ?? [],
                                                        levelNames: names)
        }
        return decoded
    }

    private static func pathway(_ row: GTFSTableReader.Row, stops: [String: Stop], stationOf: [String: String],
                                notices: inout FeedNotices) -> (station: String, pathway: Pathway)? {
        func notice(_ problem: String) -> (String, Pathway)? {
            notices.add(pathwaysFile, line: row.line, problem)
            return nil
        }
        let id = row.text(0)
        guard !id.isEmpty else { return notice("empty pathway_id") }
        var ends: [(id: String, station: String)] = []
        for (column, name) in [(1, "from_stop_id"), (2, "to_stop_id")] {
            let stop = row.text(column)
            guard let station = stationOf[stop] else {
                if stops[stop]?.locationType == 1 { return notice("\(name) '\(stop.prefix(40))' is a station, not a location within one") }
                return notice("\(name) '\(stop.prefix(40))' names no entrance, platform, node or boarding area of a station")
            }
            ends.append((stop, station))
        }
        guard ends[0].station == ends[1].station else { return notice("from_stop_id and to_stop_id are in two stations") }
        let modeText = row.text(3)
        guard let mode = Int(modeText).flatMap(PathwayMode.init(rawValue:)) else { return notice("pathway_mode '\(modeText.prefix(40))' is not 1 to 7") }
        let bidirectional: Bool
        switch row.text(4) {
        case "0": bidirectional = false
        case "1": bidirectional = true
        case let other: return notice("is_bidirectional '\(other.prefix(40))' is not 0 or 1")
        }
        var pathway = Pathway(id: id, fromStopID: ends[0].id, toStopID: ends[1].id, mode: mode, isBidirectional: bidirectional)
        // Measures: a bad one is left out, the pathway kept.
        func measure<Value>(_ column: Int, _ name: String, _ parse: (String) -> Value?, _ rule: String) -> Value? {
            let text = row.text(column)
            guard !text.isEmpty else { return nil }
            if let value = parse(text) { return value }
            notices.add(pathwaysFile, line: row.line, "\(name) '\(text.prefix(40))' is not \(rule) (left out)")
            return nil
        }
        let number = { (text: String) in Double(text).flatMap { $0.isFinite ? $0 : nil } }
        pathway.length = measure(5, "length", { number($0).flatMap { $0 >= 0 ? $0 : nil } }, "a non-negative number")
        pathway.traversalTime = measure(6, "traversal_time", { Int($0).flatMap { $0 > 0 ? $0 : nil } }, "a positive whole number")
        pathway.stairCount = measure(7, "stair_count", { Int($0) }, "a whole number")
        pathway.maxSlope = measure(8, "max_slope", number, "a number")
        pathway.minWidth = measure(9, "min_width", { number($0).flatMap { $0 > 0 ? $0 : nil } }, "a positive number")
        let text = { (column: Int) -> String? in
            let value = row.text(column)
            return value.isEmpty ? nil : value
        }
        pathway.signpostedAs = text(10)
        pathway.reversedSignpostedAs = text(11)
        pathway.facilityID = text(12)
        pathway.pathwayCode = text(13)
        return (ends[0].station, pathway)
    }

    /// The station data's stations and platforms as the rows a deployer's map hangs under.
    private static func seeds(_ platforms: [Platform]) -> [(id: String, stop: Stop)] {
        var seeds: [(id: String, stop: Stop)] = []
        var stations: Set<String> = []
        for platform in platforms where stations.insert(platform.stationID).inserted {
            seeds.append((platform.stationID, Stop(locationType: 1, parent: "", name: platform.stationName, description: "", ownWheelchair: "", levelID: "")))
        }
        for platform in platforms {
            seeds.append((platform.stopID, Stop(locationType: 0, parent: platform.stationID, name: platform.stationName, description: "", ownWheelchair: "", levelID: "")))
        }
        return seeds
    }

    /// `stops.txt`'s rows by id (the first of a repeated id, `seeds` first), in file order.
    private static func readStops(_ bytes: [UInt8], seeds: [(id: String, stop: Stop)] = [],
                                  limits: DecodingLimits) throws(DecodingFailure) -> (rows: [String: Stop], order: [String]) {
        try UpstreamBody.validateUTF8(bytes)
        var table = GTFSTableReader(name: "stops.txt", required: ["stop_id"],
                                    optional: ["stop_name", "location_type", "parent_station", "wheelchair_boarding", "level_id", "stop_desc"],
                                    maxRows: limits.maxItems)
        var rows: [String: Stop] = [:]
        var order: [String] = []
        for seed in seeds where rows[seed.id] == nil {
            rows[seed.id] = seed.stop
            order.append(seed.id)
        }
        let take = { (row: GTFSTableReader.Row) throws(DecodingFailure) in
            let id = row.text(0), typeText = row.text(2)
            guard !id.isEmpty, rows[id] == nil, let type = typeText.isEmpty ? 0 : Int(typeText) else { return }
            rows[id] = Stop(locationType: type, parent: row.text(3), name: row.text(1), description: row.text(6), ownWheelchair: row.text(4),
                             levelID: row.text(5), line: row.line)
            order.append(id)
        }
        try table.consume(bytes, take)
        try table.finish(take)
        return (rows, order)
    }

    /// Reads an optional table; false when it cannot be read at all, which is one notice (its
    /// rows' notices are dropped then: a half-read table is no topology).
    @discardableResult
    private static func readTable(_ bytes: [UInt8], name: String, required: [String], optional: [String], limits: DecodingLimits,
                                  notices: inout FeedNotices, _ onRow: (GTFSTableReader.Row, inout FeedNotices) -> Void) -> Bool {
        var found = FeedNotices()
        var table = GTFSTableReader(name: name, required: required, optional: optional, maxRows: limits.maxItems)
        let take = { (row: GTFSTableReader.Row) throws(DecodingFailure) in onRow(row, &found) }
        do {
            try UpstreamBody.validateUTF8(bytes)
            try table.consume(bytes, take)
            try table.finish(take)
        } catch {
            notices.add(name, line: 1, "not read: \(error)")
            return false
        }
        // The reader's own (a row of the wrong width) and the rows' own, by line.
        notices.append(FeedNotices.merged(table.notices, found))
        return true
    }
}
