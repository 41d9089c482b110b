/// A deployer's map of stations the agency publishes none for (`--topology-url`): GTFS
/// `stops.txt` (entrances, nodes, boarding areas), `pathways.txt` and `levels.txt`, whose
/// locations hang under the station data's own station and platform ids
/// (`GTFSPathwaysDecoder.decode(…within:)`). Kept as its tables' bytes: the map is read against
/// each new station data, and the last good one stands when a fetch fails or does not decode.
///
/// Per station, the map is refused, with a notice, where
/// - the agency's own data has pathways for it: the agency's map stands;
/// - it does not reach a platform both ways from the street (with every pathway open) that the
///   station data does not call stepped: that platform would read "no step-free way". A
///   platform the data calls not step-free may stay off the map.
///
/// A station's status stays the station data's wherever it gives one (`StationDirectory`'s
/// `stepFreeFromMap` rule is unchanged). Its notices are its tables' own, named `topology …`
/// so `health.stations` tells them from the station data's.
public struct DeployerMap: Sendable, Equatable {
    public var stops: [UInt8]
    public var pathways: [UInt8]
    public var levels: [UInt8]?

    /// The prefix of the map's notices' file names: `topology pathways.txt`.
    public static let noticePrefix = "topology "

    public init(stops: [UInt8], pathways: [UInt8], levels: [UInt8]? = nil) {
        self.stops = stops
        self.pathways = pathways
        self.levels = levels
    }

    /// Adds the map's stations to `decoded`: their topologies, their nodes and boarding areas
    /// (alerts naming one are about its station), and the notices. Throws only when `stops.txt`
    /// cannot be read at all; a `pathways.txt` that cannot is one notice and no map.
    public func apply(to decoded: inout DecodedStations, limits: DecodingLimits = .init()) throws(DecodingFailure) {
        let map = try GTFSPathwaysDecoder.decode(stops: stops, pathways: pathways, levels: levels, within: decoded.platforms, limits: limits)
        var notices = map.notices
        func refuse(_ station: String, _ why: String) {
            notices.add(GTFSPathwaysDecoder.pathwaysFile, line: 1, "station '\(station.prefix(40))': \(why); its map is refused")
        }
        for station in map.stations.keys.sorted() {
            let topology = map.stations[station]!
            guard !topology.pathways.isEmpty else { continue }
            if let own = decoded.topologies[station], !own.pathways.isEmpty {
                refuse(station, "the agency's own data has pathways here, and they stand")
                continue
            }
            let unreached = decoded.platforms.filter { $0.stationID == station && $0.stepFree != false }.map(\.stopID).filter { platform in
                guard topology.hasStreet, let position = topology.platformIDs.firstIndex(of: platform) else { return true }
                let access = topology.openAccess[position]
                return !(access.entry && access.exit)
            }
            if let first = unreached.first {
                refuse(station, "platform '\(first.prefix(40))' is not reached both ways from the street")
                continue
            }
            decoded.topologies[station] = topology
            for location in topology.locations {
                switch location.role {
                case .genericNode, .boardingArea: decoded.stopsWithin[location.id] = station
                case .entrance, .platform: break
                }
            }
        }
        decoded.notices.append(notices.prefixingFiles(Self.noticePrefix))
        decoded.deployerMap = self
    }
}
