/// Which rail lines stop at each stop, from a GTFS feed's `routes.txt`, `trips.txt` and
/// `stop_times.txt`, each read as a stream: the caller opens a table with `begin`, pushes its
/// bytes in chunks of any size with `consume`, closes it with `end`, in `Table.allCases` order
/// (trips need the routes, stop times the trips).
///
/// Only rail routes are kept (`route_type` 1, the 'L'), and only their trips: memory is bounded
/// by the rail trips and rail stops, never by the size of `stop_times.txt` (CTA's has millions of
/// rows, mostly buses). A route id becomes a `RouteID` through `RouteID.train`, the one table of
/// spellings (`Red`, `Brn`, `Pink`, `Pnk` …); a rail route it does not know keeps its GTFS id, so
/// a GTFS-realtime alert naming that id still reaches its stations.
///
/// A value type, owned by whoever feeds it.
public struct GTFSStopLines {
    public enum Table: String, CaseIterable, Sendable {
        case routes = "routes.txt"
        case trips = "trips.txt"
        case stopTimes = "stop_times.txt"
    }

    /// The GTFS `route_type` of subway and metro lines.
    public static let railRouteType = 1
    /// Most rail trips kept (CTA runs about 25,000 a week); each costs a dictionary entry.
    public static let maxRailTrips = 500_000

    private let limits: DecodingLimits
    private var open: (table: Table, reader: GTFSTableReader)?
    private var finished: [Table] = []
    private var railRoutes: [String: RouteID] = [:]
    private var tripRoutes: [String: RouteID] = [:]
    private var linesByStop: [String: Set<RouteID>] = [:]
    /// `stop_times.txt` lists a trip's stops together: its route is looked up once per trip.
    private var lastTrip: [UInt8] = []
    private var lastTripRoute: RouteID?

    public init(limits: DecodingLimits = .init()) {
        self.limits = limits
    }

    /// Opens the next table; tables come in `Table.allCases` order.
    public mutating func begin(_ table: Table) {
        precondition(open == nil && finished.count < Table.allCases.count && Table.allCases[finished.count] == table,
                     "GTFS tables are read in the order routes, trips, stop_times")
        let reader: GTFSTableReader
        switch table {
        case .routes: reader = GTFSTableReader(name: table.rawValue, required: ["route_id", "route_type"], maxRows: limits.maxItems)
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
        finished.append(table)
    }

    /// Rail lines by stop id, in CTA line order; complete once every table has ended.
    public var linesByStopID: [String: [RouteID]] {
        linesByStop.mapValues { $0.sorted() }
    }

    private mutating func take(_ row: GTFSTableReader.Row, of table: Table) throws(DecodingFailure) {
        switch table {
        case .routes:
            let type = row.text(1)
            guard let routeType = Int(type) else {
                throw .malformed(path: "routes.txt row \(row.number) column route_type", reason: "'\(type.prefix(40))' is not a number")
            }
            let id = row.text(0)
            guard routeType == Self.railRouteType, !id.isEmpty else { return }
            railRoutes[id] = RouteID.train(id) ?? RouteID(id)
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
