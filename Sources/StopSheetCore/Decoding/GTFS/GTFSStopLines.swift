/// Which train lines stop at each stop, from a GTFS feed's `feed_info.txt` and `agency.txt` (both optional), `routes.txt`,
/// `trips.txt` and `stop_times.txt`, each read as a stream: the caller opens a table with
/// `begin`, pushes its bytes in chunks of any size with `consume`, closes it with `end`, in
/// `Table.allCases` order (trips need the routes, stop times the trips).
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

        /// A feed may leave it out.
        public var isOptional: Bool { self == .feedInfo || self == .agency }
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
    /// `stop_times.txt` lists a trip's stops together: its route is looked up once per trip.
    private var lastTrip: [UInt8] = []
    private var lastTripRoute: RouteID?

    public init(trainRouteTypes: TrainRouteTypes = .rail, limits: DecodingLimits = .init()) {
        self.trainRouteTypes = trainRouteTypes
        self.limits = limits
    }

    /// Opens the next table; tables come in `Table.allCases` order, the optional ones first if at all.
    public mutating func begin(_ table: Table) {
        let order = Table.allCases
        let next = last.map { order.firstIndex(of: $0)! + 1 } ?? 0
        let index = order.firstIndex(of: table)!
        precondition(open == nil && index >= next && order[next..<index].allSatisfy(\.isOptional),
                     "GTFS tables are read in the order feed_info, agency (both optional), routes, trips, stop_times")
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
        case .trips: reader = GTFSTableReader(name: table.rawValue, required: ["route_id", "trip_id"])
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
    }

    /// Rail lines by stop id, in CTA line order; complete once every table has ended.
    public var linesByStopID: [String: [RouteID]] {
        linesByStop.mapValues { $0.sorted() }
    }

    /// The language of the feed's names: `feed_lang`, else the first `agency_lang`; nil when
    /// neither says.
    public var language: String? { feedLanguage ?? agencies.lazy.compactMap(\.language).first }

    private mutating func take(_ row: GTFSTableReader.Row, of table: Table) throws(DecodingFailure) {
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
            guard let routeType = Int(type) else {
                throw .malformed(path: "routes.txt row \(row.number) column route_type", reason: "'\(type.prefix(40))' is not a number")
            }
            let id = row.text(0)
            guard trainRouteTypes.contains(routeType), !id.isEmpty, railRoutes[id] == nil else { return }
            let route = RouteID(id)
            railRoutes[id] = route
            // A route without agency_id belongs to the feed's only agency (the reference allows
            // leaving it out then).
            let agency = row.text(5).isEmpty ? (agencies.count == 1 ? agencies[0].id : nil) : row.text(5)
            lines.append(Line(id: route, shortName: row.text(2), longName: row.text(3), color: row.text(4), routeType: routeType, agencyID: agency))
        case .trips:
            guard let route = railRoutes[row.text(0)] else { return }
            tripRoutes[row.text(1)] = route
            if tripRoutes.count > Self.maxRailTrips { throw .tooMany(count: tripRoutes.count, limit: Self.maxRailTrips) }
        case .stopTimes:
            let trip = row.bytes(0)
            if !trip.elementsEqual(lastTrip) {
                lastTrip = Array(trip)
                lastTripRoute = tripRoutes[UpstreamText.trimmed(String(decoding: trip, as: UTF8.self))]
            }
            guard let route = lastTripRoute else { return }
            let stop = row.text(1)
            guard !stop.isEmpty else { return }
            if linesByStop[stop]?.contains(route) == true { return }
            linesByStop[stop, default: []].insert(route)
            if linesByStop.count > limits.maxItems { throw .tooMany(count: linesByStop.count, limit: limits.maxItems) }
        }
    }
}
