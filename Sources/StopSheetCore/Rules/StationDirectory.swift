/// The station set built from one stops source: stations by map id, and every platform id
/// resolving to its station (DESIGN §3.1). Immutable; a station refresh builds a new one.
public struct StationDirectory: Sendable {
    /// Stations in map-id order.
    public let stations: [Station]
    private let indexByStationID: [String: Int]
    private let indexByPlatformID: [String: Int]
    /// Every stop id that is a canonical decimal number (all of CTA's are), as that number, in
    /// ascending order, beside its station's position in `positionsByDecimalID`. Lets the serving
    /// loop find a station from a request's bytes without making a String or hashing one.
    private let decimalIDs: [UInt64]
    private let positionsByDecimalID: [Int32]
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
        // Positions through `index(for:)` itself, so the two lookups cannot disagree (a station id
        // that is also another station's platform id resolves the same way in both).
        var decimal: [(id: UInt64, position: Int32)] = []
        for id in Array(byStation.keys) + Array(byPlatform.keys) {
            var id = id
            guard let number = id.withUTF8({ StationDirectory.decimalValue(UnsafeRawBufferPointer($0)) }) else { continue }
            decimal.append((number, Int32(byStation[id] ?? byPlatform[id]!)))
        }
        decimal.sort { $0.id < $1.id }
        decimalIDs = decimal.map(\.id)
        positionsByDecimalID = decimal.map(\.position)
    }

    /// The number a stop id's bytes spell when they are a canonical decimal: 1…18 digits, no
    /// leading zero (so that "040380" stays a different id from "40380"). Nil otherwise.
    static func decimalValue(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        guard (1...18).contains(bytes.count), bytes.count == 1 || bytes[0] != UInt8(ascii: "0") else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value &* 10 &+ UInt64(digit)
        }
        return value
    }

    /// `index(for:)` for a stop id given as its UTF-8 bytes, answered for decimal ids only: nil
    /// for an unknown id and for any other id, which the caller then looks up by `index(for:)`.
    public func index(forDecimalStopID bytes: UnsafeRawBufferPointer) -> Int? {
        guard let number = Self.decimalValue(bytes) else { return nil }
        var low = 0
        var high = decimalIDs.count
        while low < high {
            let middle = (low + high) / 2
            if decimalIDs[middle] < number { low = middle + 1 } else { high = middle }
        }
        guard low < decimalIDs.count, decimalIDs[low] == number else { return nil }
        return Int(positionsByDecimalID[low])
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

    /// The station's map id for a station or platform id.
    public func stationID(for stopID: String) -> String? { station(for: stopID)?.id }

    /// The station name field, trimmed, with runs of whitespace collapsed to one space
    /// (`California  (Blue Line)` → `California (Blue Line)`).
    public static func normalisedName(_ raw: String) -> String {
        raw.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
