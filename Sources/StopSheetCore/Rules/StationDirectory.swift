/// The station set built from one stops source: stations by map id, and every platform id
/// resolving to its station (docs/stop-sheet.md §2.1). Immutable; a station refresh builds a new one.
public struct StationDirectory: Sendable {
    /// Stations in map-id order.
    public let stations: [Station]
    private let indexByStationID: [String: Int]
    /// Platform ids, and the GTFS entrances, nodes and boarding areas within a station, to their station.
    private let indexByPlatformID: [String: Int]
    /// GTFS generic nodes and boarding areas → their station's id.
    public let stopsWithin: [String: String]
    /// The source's agencies (`agency.txt`; `Agency.cta` for CTA's own formats; empty when
    /// nothing names one), their zones included.
    public let agencies: [Agency]
    /// The names the stations' sheets give their agencies (`Station.agencyName`), each once, in
    /// the order of the stations: `health`'s `agencies`. Empty when nothing names one.
    public let agencyNames: [String]
    /// False when the source could not say which lines serve a platform (GTFS `stops.txt` on its
    /// own): route-scoped alerts then match no station, and `health` says so.
    public let linesKnown: Bool
    /// The language of the station names (`DecodedStations.language`): the order they sort in.
    public let language: String?
    /// The GTFS tables whose absence left the lines unknown (empty for `stops.txt` alone).
    public let tablesMissing: [String]
    /// The rows and values the source had to skip.
    public let notices: FeedNotices
    /// Each station's pathways (GTFS `pathways.txt`), by station id; empty without them.
    public let topologies: [String: StationTopology]
    /// The deployer's map in force (`--topology-url`), nil without one.
    public private(set) var deployerMap: DeployerMap?
    /// Where the stations are (their stops' coordinates), for the position join.
    public let positions: StationPositions
    /// Each station's step-free verdict with nothing out (no active outage, no lift-status unit
    /// that is not available), in `stations` order: it depends on the station and its map alone,
    /// so it is worked out once per station load, not once per snapshot, and a snapshot works
    /// out afresh only the verdicts of the stations where something is out (`Snapshot.stepFreeNow`).
    public let quietVerdicts: [StepFreeNow]

    /// A decoded station source: its platforms, entrances, lines and agencies. `agencyName`, when
    /// given (`--agency-name`), is the name every station's "none" sentence gives.
    public init(_ decoded: DecodedStations, agencyName: String? = nil) {
        self.init(platforms: decoded.platforms, entrances: decoded.entrances, linesKnown: decoded.linesKnown,
                  lines: decoded.lines, agencies: decoded.agencies, agencyName: agencyName, stopsWithin: decoded.stopsWithin,
                  language: decoded.language, notices: decoded.notices, tablesMissing: decoded.tablesMissing, topologies: decoded.topologies,
                  positions: decoded.positions)
        deployerMap = decoded.deployerMap
    }

    /// What the "none" sentence says when nothing names the agency (another agency's
    /// `stops.txt` alone, without `--agency-name`).
    public static let unnamedAgency = "The agency"

    /// Groups platforms by station. A stop id seen twice keeps its first row; a station's name
    /// is its first platform's station name, normalised. Entrances join their station; those of
    /// a station without platforms are dropped with it. A station's agency is its first line's
    /// (`agency_id`), else the first agency given.
    public init(platforms: [Platform], entrances: [Entrance] = [], linesKnown: Bool = true, lines: [Line] = [],
                agencies: [Agency] = [.cta], agencyName: String? = nil, stopsWithin: [String: String] = [:], language: String? = nil,
                notices: FeedNotices = .init(), tablesMissing: [String] = [], topologies: [String: StationTopology] = [:],
                positions: [String: Coordinate] = [:]) {
        self.linesKnown = linesKnown
        self.language = language ?? agencies.lazy.compactMap(\.language).first
        self.notices = notices
        self.tablesMissing = tablesMissing
        self.agencies = agencies
        var linesByID: [RouteID: Line] = [:]
        for line in lines where linesByID[line.id] == nil { linesByID[line.id] = line }
        func agency(of stationLines: [Line]) -> Agency? {
            if let id = stationLines.lazy.compactMap(\.agencyID).first, let named = agencies.first(where: { $0.id == id }) { return named }
            return agencies.first
        }
        var entrancesByStation: [String: [Entrance]] = [:]
        for entrance in entrances { entrancesByStation[entrance.stationID, default: []].append(entrance) }
        var order: [String] = []
        var grouped: [String: [Platform]] = [:]
        var seenStops: Set<String> = []
        for platform in platforms where seenStops.insert(platform.stopID).inserted {
            if grouped[platform.stationID] == nil { order.append(platform.stationID) }
            grouped[platform.stationID, default: []].append(platform)
        }
        stations = order.sorted().map { id in
            let reported = grouped[id]!
            let mapped = StationDirectory.stepFreeFromMap(reported, topologies[id])
            let members = mapped ?? reported
            var station = Station(id: id, name: StationDirectory.normalisedName(members[0].stationName), platforms: members,
                                  entrances: entrancesByStation[id] ?? [])
            if mapped != nil { station.stepFreeFrom = .pathways }
            station.lines = station.routes.compactMap { linesByID[$0] }
            let known = agency(of: station.lines)
            station.agencyName = agencyName ?? known?.spokenName ?? StationDirectory.unnamedAgency
            station.agencyID = station.lines.lazy.compactMap(\.agencyID).first ?? known?.id
            return station
        }
        var named: Set<String> = [StationDirectory.unnamedAgency]
        agencyNames = stations.map(\.agencyName).filter { named.insert($0).inserted }
        var byStation: [String: Int] = [:]
        var byPlatform: [String: Int] = [:]
        for (index, station) in stations.enumerated() {
            byStation[station.id] = index
            for platform in station.platforms { byPlatform[platform.stopID] = index }
        }
        // A way in names its station, as a node does; never over a station or platform id.
        for (index, station) in stations.enumerated() {
            for entrance in station.entrances where byPlatform[entrance.id] == nil && byStation[entrance.id] == nil {
                byPlatform[entrance.id] = index
            }
        }
        for (stop, station) in stopsWithin where byPlatform[stop] == nil {
            if let index = byStation[station] { byPlatform[stop] = index }
        }
        indexByStationID = byStation
        indexByPlatformID = byPlatform
        self.stopsWithin = stopsWithin.filter { byStation[$0.value] != nil }
        let mapped = topologies.filter { byStation[$0.key] != nil && !$0.value.pathways.isEmpty }
        self.topologies = mapped
        quietVerdicts = stations.map { StepFreeNow(station: $0, topology: mapped[$0.id], outages: []) }
        self.positions = StationPositions(positions) { byStation[$0] ?? byPlatform[$0] }
    }

    /// The platforms with their step-free values from the station's map, when the station data
    /// gives none of them one (TfL's GTFS has no `wheelchair_boarding`) and the map has pathways
    /// and knows the street: a platform is step-free when the street reaches it and it reaches the
    /// street with every pathway open. The station's status then aggregates them as any: step-free
    /// to every platform is `available`, to some `available` and `partial`, to none `none`. Nil
    /// (the data's own values stand) otherwise.
    static func stepFreeFromMap(_ platforms: [Platform], _ topology: StationTopology?) -> [Platform]? {
        guard platforms.allSatisfy({ $0.stepFree == nil }), let topology, !topology.pathways.isEmpty, topology.hasStreet else { return nil }
        return platforms.map { platform in
            var platform = platform
            let access = topology.platformIDs.firstIndex(of: platform.stopID).map { topology.openAccess[$0] }
            platform.stepFree = access.map { $0.entry && $0.exit } ?? false
            return platform
        }
    }

    public var count: Int { stations.count }

    /// The station a stop id names: a station map id, one of its platforms' stop ids, or a GTFS
    /// entrance, node or boarding area within it.
    public func station(for stopID: String) -> Station? {
        index(for: stopID).map { stations[$0] }
    }

    /// The position in `stations` of the station a stop id names: lets a snapshot keep per-station
    /// data in an array and answer without copying a `Station`.
    public func index(for stopID: String) -> Int? {
        indexByStationID[stopID] ?? indexByPlatformID[stopID]
    }

    /// The station name field, trimmed, with runs of whitespace collapsed to one space
    /// (`California  (Blue Line)` → `California (Blue Line)`).
    public static func normalisedName(_ raw: String) -> String {
        raw.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
