/// GTFS `stops.txt` → platforms and entrances, grouped later by `StationDirectory`.
///
/// - Stations are `location_type=1` rows; a station's name is its `stop_name`.
/// - Platforms are child stops (`location_type` 0 or empty) of a station. When the feed's trips
///   are known, a child is a platform when a train trip stops there, and its lines are those
///   trips' routes.
/// - A rail stop without a parent (`location_type` 0 or empty, no `parent_station`, served by a
///   train trip) is a station of its own, as GTFS allows and many agencies publish. Such stops
///   with the same `stop_name` within `samePlaceMeters` of each other, transitively, are one
///   station (riders see one stop with two platforms): its id is its members' smallest
///   `stop_id` in byte order, its platforms are the members. Only known trips tell a rail stop
///   from a bus stop, so `stops.txt` alone gives no such stations.
/// - Without trips (`stops.txt` alone, or a feed without `trips.txt`/`stop_times.txt`) every
///   child is a platform, its lines unknown — except in CTA's own `stops.txt`, which also
///   parents bus bays (`14xxx`/`17xxx`) to rail stations. It is told by its numbering, which the
///   data states: every station a five-digit `4xxxx` map id and a child numbered as a CTA rail
///   platform (`3xxxx`). There the `3xxxx` children are the platforms, as before, and the agency
///   is CTA (unless `agency.txt` names one).
/// - Entrances are `location_type=2` children of a station. Generic nodes (3) and boarding areas
///   (4, children of a platform) are never platforms: they resolve to their station, so an alert
///   naming one reaches it.
/// - `wheelchair_boarding`, as the GTFS reference defines it: on a station `1` accessible, `2`
///   not, `0`/empty unknown; on any other stop `1` accessible, `2` not, `0`/empty its parent's
///   value, through the parents (a boarding area's platform, then its station). OpenTripPlanner
///   #2493 reads `0` there as unknown: that is wrong.
/// - A row or value that cannot be used (an empty or repeated `stop_id`, a `location_type` that is
///   not a number, a `wheelchair_boarding` not 0, 1 or 2, a coordinate that is not one, a parent
///   that does not exist or is its own ancestor) is skipped and counted in `notices`.
public enum GTFSStopsDecoder {
    public static let file = "stops.txt"
    /// How near two parentless platforms of one name are to be one station.
    public static let samePlaceMeters = 300.0

    private enum Column: Int, CaseIterable {
        case stopID, stopName, locationType, parentStation, wheelchairBoarding, latitude, longitude
    }

    private struct Row {
        var id: String
        var name: String
        var locationType: Int
        var parent: String
        var wheelchair: Bool??
        var coordinate: Coordinate?
        var line: Int
    }

    /// `feed` is what `GTFSStopLines` read from the feed's other tables, or nil for `stops.txt`
    /// alone.
    public static func decode(_ bytes: [UInt8], feed: GTFSStopLines? = nil,
                              limits: DecodingLimits = .init()) throws(DecodingFailure) -> DecodedStations {
        let linesByStopID = feed?.linesKnown == true ? feed?.linesByStopID : nil
        let headsignsByStopID = feed?.headsignsByStopID ?? [:]
        try UpstreamBody.validateUTF8(bytes)
        var table = GTFSTableReader(name: file, required: ["stop_id"],
                                    optional: ["stop_name", "location_type", "parent_station", "wheelchair_boarding", "stop_lat", "stop_lon"],
                                    maxRows: limits.maxItems)
        var rows: [Row] = []
        var notices = FeedNotices()
        let collect = { (row: GTFSTableReader.Row) throws(DecodingFailure) in
            if let read = Self.row(row, notices: &notices) { rows.append(read) }
        }
        try table.consume(bytes, collect)
        try table.finish(collect)
        notices = .merged(table.notices, notices)

        var byID: [String: Row] = [:]
        var unique: [Row] = []
        for row in rows {
            guard byID[row.id] == nil else {
                notices.add(file, line: row.line, "stop_id '\(UpstreamText.quoted(row.id))' repeats an earlier row: row skipped")
                continue
            }
            byID[row.id] = row
            unique.append(row)
        }
        rows = unique
        rows.removeAll { row in
            guard let problem = parentProblem(row, byID) else { return false }
            notices.add(file, line: row.line, problem)
            return true
        }
        var stations = byID.filter { $0.value.locationType == 1 }
        let ctaNumbering = linesByStopID == nil && !stations.isEmpty && stations.keys.allSatisfy { isCTANumber($0, first: "4") }
            && rows.contains { $0.locationType == 0 && stations[$0.parent] != nil && isCTANumber($0.id, first: "3") }
        // Parentless rail stops, each then a child of its place's station.
        var parentless: [String: String] = [:]
        if let linesByStopID {
            let served = rows.filter { $0.locationType == 0 && $0.parent.isEmpty && linesByStopID[$0.id]?.isEmpty == false }
            for place in places(served) {
                let id = place.map(\.id).min { $0.utf8.lexicographicallyPrecedes($1.utf8) }!
                stations[id] = Row(id: id, name: place[0].name, locationType: 1, parent: "", wheelchair: nil, coordinate: nil, line: 0)
                for member in place { parentless[member.id] = id }
            }
        }
        var platforms: [Platform] = []
        var entrances: [Entrance] = []
        var within: [String: String] = [:]
        for row in rows where row.locationType != 1 {
            let parentID = parentless[row.id] ?? row.parent
            // A boarding area's parent is a platform; its station is the platform's parent.
            let parent = byID[row.parent]
            let platformStation = parent.map { parentless[$0.id] ?? $0.parent }
            guard let station = stations[parentID] ?? (row.locationType == 4 ? platformStation.flatMap { stations[$0] } : nil) else { continue }
            // Inheritance: an unknown is the parent's value, up to the station (maybe unknown too).
            let stepFree = parentless[row.id] != nil ? row.wheelchair ?? nil
                : row.wheelchair ?? (parent?.locationType == 1 ? nil : parent?.wheelchair) ?? station.wheelchair ?? nil
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
                platforms.append(Platform(stopID: row.id, stationID: station.id, stationName: station.name, routes: lines, stepFree: stepFree,
                                          name: row.name, headsigns: headsignsByStopID[row.id] ?? []))
            case 2:
                entrances.append(Entrance(id: row.id, stationID: station.id, name: row.name, stepFree: stepFree))
            case 3, 4:
                within[row.id] = station.id
            default:
                continue
            }
        }
        let agencies = feed.map(\.agencies).flatMap { $0.isEmpty ? nil : $0 } ?? (ctaNumbering ? [.cta] : [])
        var decoded = DecodedStations(platforms: platforms, entrances: entrances, linesKnown: linesByStopID != nil,
                               lines: feed?.lines ?? [], agencies: agencies, stopsWithin: within, language: feed?.language,
                               notices: (feed?.notices).map { var all = $0; all.append(notices); return all } ?? notices,
                               tablesMissing: feed?.tablesMissingForLines ?? [])
        for row in rows { if let coordinate = row.coordinate { decoded.positions[row.id] = coordinate } }
        return decoded
    }

    /// Why a row's parent cannot be used, or nil: it does not exist, or the row is its own ancestor.
    private static func parentProblem(_ row: Row, _ byID: [String: Row]) -> String? {
        guard !row.parent.isEmpty else { return nil }
        guard byID[row.parent] != nil else {
            return "parent_station '\(UpstreamText.quoted(row.parent))' names no stop: row skipped"
        }
        // GTFS nests two deep (boarding area, platform, station): a longer chain is followed as
        // far as a cycle could show.
        var ancestor = row.parent
        for _ in 0..<8 {
            if ancestor == row.id { return "parent_station '\(UpstreamText.quoted(row.parent))' leads back to this stop: row skipped" }
            guard let next = byID[ancestor], !next.parent.isEmpty else { return nil }
            ancestor = next.parent
        }
        return nil
    }

    /// Stops grouped as riders see places: the same name, each within `samePlaceMeters` of
    /// another of the group (transitively). A stop without coordinates is a place of its own.
    private static func places(_ stops: [Row]) -> [[Row]] {
        var byName: [String: [Row]] = [:]
        var names: [String] = []
        for stop in stops {
            let name = StationDirectory.normalisedName(stop.name)
            if byName[name] == nil { names.append(name) }
            byName[name, default: []].append(stop)
        }
        var places: [[Row]] = []
        for name in names {
            let group = byName[name]!
            // Union-find over the group; groups are small (one name's platforms).
            var root = Array(group.indices)
            func find(_ index: Int) -> Int {
                var at = index
                while root[at] != at { root[at] = root[root[at]]; at = root[at] }
                return at
            }
            for one in group.indices {
                for other in group.indices where other > one {
                    guard let a = group[one].coordinate, let b = group[other].coordinate,
                          a.meters(to: b) <= samePlaceMeters else { continue }
                    root[find(other)] = find(one)
                }
            }
            var members: [Int: [Row]] = [:]
            var order: [Int] = []
            for index in group.indices {
                let top = find(index)
                if members[top] == nil { order.append(top) }
                members[top, default: []].append(group[index])
            }
            places += order.map { members[$0]! }
        }
        return places
    }

    /// CTA's numbering: five digits, the first `first` (`4` a station's map id, `3` a rail platform).
    static func isCTANumber(_ id: String, first: Character) -> Bool {
        let utf8 = Array(id.utf8)
        return utf8.count == 5 && utf8[0] == first.asciiValue! && utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The row, or nil (and a notice) when it cannot be used; a bad value is dropped with a notice.
    private static func row(_ row: GTFSTableReader.Row, notices: inout FeedNotices) -> Row? {
        func note(_ problem: String) { notices.add(file, line: row.line, problem) }
        let id = row.text(Column.stopID.rawValue)
        guard !id.isEmpty else { note("empty stop_id: row skipped"); return nil }
        let typeText = row.text(Column.locationType.rawValue)
        guard let locationType = typeText.isEmpty ? 0 : Int(typeText) else {
            note("location_type '\(UpstreamText.quoted(typeText))' is not a number: row skipped")
            return nil
        }
        let wheelchair: Bool??
        switch row.text(Column.wheelchairBoarding.rawValue) {
        case "1": wheelchair = .some(true)
        case "2": wheelchair = .some(false)
        case "0", "": wheelchair = nil
        case let other:
            note("wheelchair_boarding '\(UpstreamText.quoted(other))' is not 0, 1 or 2: read as unknown")
            wheelchair = nil
        }
        let latitude = row.text(Column.latitude.rawValue), longitude = row.text(Column.longitude.rawValue)
        var coordinate: Coordinate?
        if !latitude.isEmpty || !longitude.isEmpty {
            coordinate = Coordinate(latitude: latitude, longitude: longitude)
            if coordinate == nil { note("stop_lat/stop_lon '\(UpstreamText.quoted(latitude))', '\(UpstreamText.quoted(longitude))' is not a coordinate: position unknown") }
        }
        return Row(id: id, name: row.text(Column.stopName.rawValue), locationType: locationType,
                   parent: row.text(Column.parentStation.rawValue), wheelchair: wheelchair, coordinate: coordinate, line: row.line)
    }
}
