/// The station set built from one stops source: stations by map id, and every platform id
/// resolving to its station (docs/stop-sheet.md §2.1). Immutable; a station refresh builds a new one.
public struct StationDirectory: Sendable {
    /// Stations in map-id order.
    public let stations: [Station]
    private let indexByStationID: [String: Int]
    private let indexByPlatformID: [String: Int]
    /// False when the source could not say which lines serve a platform (GTFS `stops.txt` on its
    /// own): route-scoped alerts then match no station, and `health` says so.
    public let linesKnown: Bool

    /// A decoded station source: its platforms, entrances and whether lines are known.
    public init(_ decoded: DecodedStations) {
        self.init(platforms: decoded.platforms, entrances: decoded.entrances, linesKnown: decoded.linesKnown)
    }

    /// Groups platforms by station. A stop id seen twice keeps its first row; a station's name
    /// is its first platform's station name, normalised. Entrances join their station; those of
    /// a station without platforms are dropped with it.
    public init(platforms: [Platform], entrances: [Entrance] = [], linesKnown: Bool = true) {
        self.linesKnown = linesKnown
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
            let members = grouped[id]!
            return Station(id: id, name: StationDirectory.normalisedName(members[0].stationName), platforms: members,
                           entrances: entrancesByStation[id] ?? [])
        }
        var byStation: [String: Int] = [:]
        var byPlatform: [String: Int] = [:]
        for (index, station) in stations.enumerated() {
            byStation[station.id] = index
            for platform in station.platforms { byPlatform[platform.stopID] = index }
        }
        indexByStationID = byStation
        indexByPlatformID = byPlatform
    }

    public var count: Int { stations.count }

    /// The station a stop id names: a station map id or one of its platforms' stop ids.
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
