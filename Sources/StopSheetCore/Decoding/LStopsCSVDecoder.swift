/// The 'L' stops CSV export: one platform per row, columns found by header name (any case, any
/// order). The station name is passed on raw; the rules layer trims and collapses it.
public enum LStopsCSVDecoder {
    public static func decode(_ bytes: [UInt8], limits: DecodingLimits = .init()) throws(DecodingFailure) -> [Platform] {
        try decodeStations(bytes, limits: limits).platforms
    }

    /// The platforms, with each one's coordinate from the dataset's `Location` column when it
    /// has one (`(41.799756, -87.724493)`): the stations' positions (`DecodedStations.positions`).
    public static func decodeStations(_ bytes: [UInt8], limits: DecodingLimits = .init()) throws(DecodingFailure) -> DecodedStations {
        let rows = try CSVReader.rows(bytes)
        guard let header = rows.first else { throw .malformed(path: "header", reason: "no header row") }
        let columns = try Columns(header)
        // Row numbers as a spreadsheet shows them: the header is row 1. Blank lines are skipped.
        let records = CSVReader.dataRows(rows)
        try limits.check(itemCount: records.count)

        var platforms: [Platform] = []
        var positions: [String: Coordinate] = [:]
        platforms.reserveCapacity(records.count)
        for (index, row) in records {
            let platform = try platform(row, rowNumber: index + 1, columns: columns, fieldCount: header.count)
            platforms.append(platform)
            if let column = columns.location, let coordinate = Self.coordinate(row[column]) { positions[platform.stopID] = coordinate }
        }
        var decoded = DecodedStations(platforms: platforms)
        decoded.positions = positions
        return decoded
    }

    /// The `Location` column's `(latitude, longitude)`; nil for anything else, empty included.
    static func coordinate(_ text: String) -> Coordinate? {
        var inner = Substring(UpstreamText.trimmed(text))
        guard inner.first == "(", inner.last == ")" else { return nil }
        inner = inner.dropFirst().dropLast()
        let parts = inner.split(separator: ",", omittingEmptySubsequences: false).map { UpstreamText.trimmed(String($0)) }
        guard parts.count == 2 else { return nil }
        return Coordinate(latitude: parts[0], longitude: parts[1])
    }

    private struct Columns {
        var stopID, stationName, mapID, ada: Int
        var directionID: Int?
        /// Optional: the platform's name, which says the direction it serves.
        var stopName: Int?
        var routeFlags: [(index: Int, name: String, route: RouteID)]
        /// Optional: the platform's position, `(latitude, longitude)`.
        var location: Int?

        init(_ header: [String]) throws(DecodingFailure) {
            let names = header.map { UpstreamText.trimmed($0).uppercased() }
            func column(_ name: String) throws(DecodingFailure) -> Int {
                guard let index = names.firstIndex(of: name.uppercased()) else {
                    throw .malformed(path: "header", reason: "no \(name) column")
                }
                return index
            }
            stopID = try column(LStopsSchema.stopID)
            stationName = try column(LStopsSchema.stationName)
            mapID = try column(LStopsSchema.mapID)
            ada = try column(LStopsSchema.ada)
            directionID = names.firstIndex(of: LStopsSchema.directionID)
            stopName = names.firstIndex(of: LStopsSchema.stopName)
            location = names.firstIndex(of: LStopsSchema.location)
            routeFlags = []
            for (name, route) in LStopsSchema.routeFlags { routeFlags.append((try column(name), name, route)) }
        }
    }

    private static func platform(_ row: [String], rowNumber: Int, columns: Columns, fieldCount: Int) throws(DecodingFailure) -> Platform {
        guard row.count == fieldCount else {
            throw .malformed(path: "row \(rowNumber)", reason: "\(row.count) fields, the header has \(fieldCount)")
        }
        func path(_ column: String) -> String { "row \(rowNumber) column \(column)" }
        func id(_ index: Int, _ column: String) throws(DecodingFailure) -> String {
            let id = UpstreamText.trimmed(row[index])
            guard !id.isEmpty else { throw .malformed(path: path(column), reason: "empty") }
            return id
        }

        let stopID = try id(columns.stopID, LStopsSchema.stopID)
        let stationID = try id(columns.mapID, LStopsSchema.mapID)
        let stationName = row[columns.stationName]
        guard !UpstreamText.trimmed(stationName).isEmpty else {
            throw .malformed(path: path(LStopsSchema.stationName), reason: "empty")
        }
        var routes: [RouteID] = []
        for (index, name, route) in columns.routeFlags {
            if try LStopsSchema.routeFlag(row[index], at: path(name)) { routes.append(route) }
        }
        let direction = columns.directionID.map { UpstreamText.trimmed(row[$0]) }
        return Platform(
            stopID: stopID,
            stationID: stationID,
            stationName: stationName,
            direction: direction,
            routes: routes,
            stepFree: LStopsSchema.boolean(row[columns.ada]),
            name: columns.stopName.map { row[$0] })
    }
}
