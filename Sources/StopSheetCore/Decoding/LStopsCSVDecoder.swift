/// The 'L' stops CSV export: one platform per row, columns found by header name (any case, any
/// order). The station name is passed on raw; the rules layer trims and collapses it.
public enum LStopsCSVDecoder {
    public static func decode(_ bytes: [UInt8], limits: DecodingLimits = .init()) throws(DecodingFailure) -> [Platform] {
        let rows = try CSVReader.rows(bytes)
        guard let header = rows.first else { throw .malformed(path: "header", reason: "no header row") }
        let columns = try Columns(header)
        // Row numbers as a spreadsheet shows them: the header is row 1. Blank lines are skipped.
        let records = CSVReader.dataRows(rows)
        try limits.check(itemCount: records.count)

        var platforms: [Platform] = []
        platforms.reserveCapacity(records.count)
        for (index, row) in records {
            platforms.append(try platform(row, rowNumber: index + 1, columns: columns, fieldCount: header.count))
        }
        return platforms
    }

    private struct Columns {
        var stopID, stationName, mapID, ada: Int
        var directionID: Int?
        /// Optional: the platform's name, which says the direction it serves.
        var stopName: Int?
        var routeFlags: [(index: Int, name: String, route: RouteID)]

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
