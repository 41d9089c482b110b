/// Which train lines stop at each stop, from a GTFS feed's `feed_info.txt` and `agency.txt` (both optional), `routes.txt`,
/// `trips.txt` and `stop_times.txt`, each read as a stream: the caller opens a table with
/// `begin`, pushes its bytes in chunks of any size with `consume`, closes it with `end`, in
/// `Table.allCases` order (trips need the routes, stop times the trips). A table may be left
/// out: without trips or stop times the lines serving each stop are unknown (`linesKnown`).
/// A row or value that cannot be used is skipped and counted in `notices`.
///
/// Only train routes are kept (`route_type` in `TrainRouteTypes`, every rail mode by default),
/// and only their trips: memory is bounded by the train trips and train stops, never by the size
/// of `stop_times.txt` (CTA's has millions of rows, mostly buses). A line is the feed's
/// `route_id` as the feed spells it (CTA's GTFS spells its lines as CTA's other formats do:
/// `Red`, `Brn`, `G`), so a GTFS-realtime alert naming that id reaches its stations.
///
/// A value type, owned by whoever feeds it.
public struct GTFSStopLines {
    public enum Table: String, CaseIterable, Sendable {
        /// Optional: a feed without it names no language of its own (`feed_lang`).
        case feedInfo = "feed_info.txt"
        /// Optional: a feed without it names no agency.
        case agency = "agency.txt"
        case routes = "routes.txt"
        case trips = "trips.txt"
        case stopTimes = "stop_times.txt"
    }

    /// Most rail trips kept (CTA runs about 25,000 a week); each costs a dictionary entry.
    public static let maxRailTrips = 500_000

    private let limits: DecodingLimits
    private let trainRouteTypes: TrainRouteTypes
    private var open: (table: Table, reader: GTFSTableReader)?
    /// The last table begun: tables come in order, `agency.txt` may be left out.
    private var last: Table?
    private var railRoutes: [String: RouteID] = [:]
    /// The train lines in `routes.txt` order.
    public private(set) var lines: [Line] = []
    public private(set) var agencies: [Agency] = []
    /// `feed_info.txt`'s `feed_lang`, unless `mul` (several: then the agencies' say).
    private var feedLanguage: String?
    private var tripRoutes: [String: RouteID] = [:]
    private var linesByStop: [String: Set<RouteID>] = [:]
    /// Each rail trip's `trip_headsign`, as a position in `headsigns` (a feed has few).
    private var tripHeadsigns: [String: Int] = [:]
    private var headsigns: [String] = []
    private var headsignPositions: [String: Int] = [:]
    /// The headsigns of the trips stopping at each stop, as positions, in first-seen order.
    private var headsignsByStop: [String: [Int]] = [:]
    private var lastTripHeadsign: Int?
    /// `stop_times.txt` lists a trip's stops together: its route is looked up once per trip.
    private var lastTrip: [UInt8] = []
    private var lastTripRoute: RouteID?
    /// Every `route_id` seen, to tell a duplicate.
    private var routeIDs: Set<String> = []
    /// The tables read to their end.
    public private(set) var tablesRead: Set<Table> = []
    /// What had to be skipped, over the tables ended so far.
    public private(set) var notices = FeedNotices()
    /// The open table's notices from its rows' values (the reader counts field counts).
    private var tableNotices = FeedNotices()

    public init(trainRouteTypes: TrainRouteTypes = .rail, limits: DecodingLimits = .init()) {
        self.trainRouteTypes = trainRouteTypes
        self.limits = limits
    }

    /// Opens the next table; tables come in `Table.allCases` order, any of them left out.
    public mutating func begin(_ table: Table) {
        let order = Table.allCases
        precondition(open == nil && last.map { order.firstIndex(of: $0)! < order.firstIndex(of: table)! } ?? true,
                     "GTFS tables are read in the order feed_info, agency, routes, trips, stop_times")
        last = table
        let reader: GTFSTableReader
        switch table {
        case .feedInfo:
            // Read for the order of names alone: nothing in it is required here.
            reader = GTFSTableReader(name: table.rawValue, required: [], optional: ["feed_lang"], maxRows: limits.maxItems)
        case .agency:
            reader = GTFSTableReader(name: table.rawValue, required: ["agency_name"], optional: ["agency_id", "agency_timezone", "agency_lang"], maxRows: limits.maxItems)
        case .routes:
            reader = GTFSTableReader(name: table.rawValue, required: ["route_id", "route_type"],
                                     optional: ["route_short_name", "route_long_name", "route_color", "agency_id"], maxRows: limits.maxItems)
        case .trips: reader = GTFSTableReader(name: table.rawValue, required: ["route_id", "trip_id"], optional: ["trip_headsign"])
        case .stopTimes: reader = GTFSTableReader(name: table.rawValue, required: ["trip_id", "stop_id"])
        }
        open = (table, reader)
    }

    public mutating func consume(_ bytes: ArraySlice<UInt8>) throws(DecodingFailure) {
        try withRawBytes(bytes) { (buffer) throws(DecodingFailure) in try consume(buffer) }
    }

    public mutating func consume(_ bytes: [UInt8]) throws(DecodingFailure) { try consume(bytes[...]) }

    /// Not generic, so the daemon's calls run the specialised loop.
    public mutating func consume(_ bytes: UnsafeRawBufferPointer) throws(DecodingFailure) {
        guard let (table, opened) = open else { preconditionFailure("consume before begin") }
        var reader = opened
        open = nil
        defer { open = (table, reader) }
        try reader.consume(bytes) { (row) throws(DecodingFailure) in try self.take(row, of: table) }
    }

    public mutating func end() throws(DecodingFailure) {
        guard let (table, opened) = open else { preconditionFailure("end before begin") }
        var reader = opened
        open = nil
        try reader.finish { (row) throws(DecodingFailure) in try self.take(row, of: table) }
        notices.append(.merged(reader.notices, tableNotices))
        tableNotices = FeedNotices()
        tablesRead.insert(table)
    }

    /// The tables that say which lines serve a stop.
    public static let linesTables: [Table] = [.routes, .trips, .stopTimes]

    /// Whether the lines serving each stop are known: routes, trips and stop times were all read.
    public var linesKnown: Bool { tablesMissingForLines.isEmpty }

    /// The tables whose absence leaves the lines unknown.
    public var tablesMissingForLines: [String] {
        Self.linesTables.filter { !tablesRead.contains($0) }.map(\.rawValue)
    }

    /// Rail lines by stop id, in CTA line order; complete once every table has ended.
    public var linesByStopID: [String: [RouteID]] {
        linesByStop.mapValues { $0.sorted() }
    }

    /// Where the trains stopping at each stop go: the `trip_headsign`s of its rail trips, in
    /// first-seen order (a platform's direction words, `PlatformPlacement`).
    public var headsignsByStopID: [String: [String]] {
        headsignsByStop.mapValues { $0.map { headsigns[$0] } }
    }

    /// The language of the feed's names: `feed_lang`, else the first `agency_lang`; nil when
    /// neither says.
    public var language: String? { feedLanguage ?? agencies.lazy.compactMap(\.language).first }

    private mutating func take(_ row: GTFSTableReader.Row, of table: Table) throws(DecodingFailure) {
        // Stop times are millions of rows: their path is kept small, the other tables' apart.
        guard table == .stopTimes else { return try takeSmallTable(row, table) }
        let trip = row.bytes(0)
        if !trip.elementsEqual(lastTrip) {
            lastTrip = Array(trip)
            let id = UpstreamText.trimmed(String(decoding: trip, as: UTF8.self))
            lastTripRoute = tripRoutes[id]
            lastTripHeadsign = tripHeadsigns[id]
        }
        guard let route = lastTripRoute else { return }
        let stop = row.text(1)
        guard !stop.isEmpty else { return }
        if let headsign = lastTripHeadsign, headsignsByStop[stop]?.contains(headsign) != true {
            headsignsByStop[stop, default: []].append(headsign)
        }
        if linesByStop[stop]?.contains(route) == true { return }
        linesByStop[stop, default: []].insert(route)
        if linesByStop.count > limits.maxItems { throw .tooMany(count: linesByStop.count, limit: limits.maxItems) }
    }

    @inline(never)
    private mutating func takeSmallTable(_ row: GTFSTableReader.Row, _ table: Table) throws(DecodingFailure) {
        switch table {
        case .feedInfo:
            let language = row.text(0)
            if feedLanguage == nil, !language.isEmpty, language.lowercased() != "mul" { feedLanguage = language }
        case .agency:
            let id = row.text(1)
            // The name goes into a sentence: control characters have no place there.
            let name = String(String.UnicodeScalarView(row.text(0).unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
            agencies.append(Agency(id: id.isEmpty ? nil : id, name: name, timeZone: row.text(2).isEmpty ? nil : row.text(2),
                                   language: row.text(3).isEmpty ? nil : row.text(3)))
        case .routes:
            let type = row.text(1)
            let id = row.text(0)
            guard !id.isEmpty else { return tableNotices.add(table.rawValue, line: row.line, "empty route_id: row skipped") }
            guard routeIDs.insert(id).inserted else {
                return tableNotices.add(table.rawValue, line: row.line, "route_id '\(UpstreamText.quoted(id))' repeats an earlier row: row skipped")
            }
            guard let routeType = Int(type) else {
                return tableNotices.add(table.rawValue, line: row.line, "route_type '\(UpstreamText.quoted(type))' is not a number: row skipped")
            }
            guard trainRouteTypes.contains(routeType) else { return }
            let route = RouteID(id)
            railRoutes[id] = route
            // A route without agency_id belongs to the feed's only agency (the reference allows
            // leaving it out then).
            let agency = row.text(5).isEmpty ? (agencies.count == 1 ? agencies[0].id : nil) : row.text(5)
            lines.append(Line(id: route, shortName: row.text(2), longName: row.text(3), color: row.text(4), routeType: routeType, agencyID: agency))
        case .trips:
            guard let route = railRoutes[row.text(0)] else { return }
            let trip = row.text(1)
            guard tripRoutes.updateValue(route, forKey: trip) == nil else {
                return tableNotices.add(table.rawValue, line: row.line, "trip_id '\(UpstreamText.quoted(trip))' repeats an earlier row")
            }
            if tripRoutes.count > Self.maxRailTrips { throw .tooMany(count: tripRoutes.count, limit: Self.maxRailTrips) }
            let headsign = row.text(2)
            if !headsign.isEmpty {
                let position = headsignPositions[headsign] ?? headsigns.count
                if position == headsigns.count { headsigns.append(headsign); headsignPositions[headsign] = position }
                tripHeadsigns[trip] = position
            }
        case .stopTimes:
            preconditionFailure("stop times take the other path")
        }
    }
}
