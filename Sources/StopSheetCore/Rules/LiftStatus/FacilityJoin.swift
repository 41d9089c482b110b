/// The first step of placing a lift-status unit: which station it is at, with the status that
/// counts at a moment and its inventory rows. The second, where it is on that station's
/// pathways, is `FacilityPlacement`'s.
///
/// A unit is at the station of (the first that names one; `Rule`, the wire's `joinedBy`):
/// 1. its inventory rows' stops (`--facilities-inventory-url`), or a pathway an inventory row
///    names (the station whose topology has it);
/// 2. the feed's own stop ids (SIRI-FM's `StopPlaceRef`/`StopPointRef`);
/// 3. WMATA's `StationCode`, as the station whose id holds it: `STN_A01`, or the transfer
///    complex `STN_A01_C01` (WMATA's GTFS gives a station of two lines one id with both codes);
/// 4. the deployer's station table (`--facilities-stations-url`): the stops its rows give the
///    unit's own station reference (FaSta's `stationnumber`, IDFM's `ZdcId`), else its station
///    code; one reference may name several stations;
/// 5. its position (`--facilities-radius`): the station whose nearest stop (the station or any
///    of its locations with a coordinate, `StationPositions`) is nearest to it within the radius,
///    and each other station whose nearest stop is within `tieMeters` of that distance (never
///    silently at one of two), each with its own distance;
/// 6. the station whose pathway has the unit's id as its `facility_id`, `pathway_code`,
///    `signposted_as` or `pathway_id` (a SIRI-FM `FacilityRef` alone), when one station's does.
/// A unit at none is at no station (`Joined.nowhere`: listed with why, in plain words, counted,
/// never in a verdict). One at several stations (an NYCT unit between two complexes) counts at each.
public enum FacilityJoin {
    /// Which rule put a unit at its station, in the order they are tried.
    public enum Rule: String, Hashable, Sendable, CaseIterable {
        case inventory, feed, stationCode, table, position, pathway
    }

    /// `--facilities-radius`'s default: how far from a unit the position join looks, in metres.
    public static let defaultRadiusMeters = 300
    /// How much further than the nearest a second station's nearest stop may be for the unit to
    /// be at both: closer than this, a position cannot tell them apart.
    public static let tieMeters = 50.0

    public struct Joined: Sendable {
        /// The units at each station, by station id, each with its inventory rows.
        public var byStation: [String: [FacilityUnit]]
        /// The units at no station, in feed order, each with why (`FacilityUnit.notJoined`).
        public var nowhere: [FacilityUnit]
        /// How many units each rule put at their stations (one at two stations counted once).
        public var joinedBy: [Rule: Int] = [:]

        /// The units at each station whose status is not `available`: what a verdict reads (a
        /// `facilities` listing reads them all).
        public var notAvailable: [String: [FacilityUnit]] {
            byStation.compactMapValues { units in
                let notAvailable = units.filter { $0.status != .available }
                return notAvailable.isEmpty ? nil : notAvailable
            }
        }
    }

    /// The units at each station (by station id), in feed order, each with its inventory rows and
    /// its status as it counts at `now`. With `stale` (the data is older than its stale-after),
    /// every unit's status is `unknown`. The units at no station are `nowhere`.
    ///
    /// `table` and `radiusMeters`: the deployer's station table and the position join's reach.
    public static func join(_ units: [FacilityUnit], inventory: FacilityInventory = .empty, table: FacilityStationTable = .empty,
                            radiusMeters: Int = defaultRadiusMeters, stations: StationDirectory,
                            at now: Instant, stale: Bool = false) -> Joined {
        // Each pathway by the name an inventory row gives it (`Pathway.inventoryName`), with its station.
        var pathwayStation: [String: String] = [:]
        // Each pathway id, facility_id, pathway_code and signposted_as, with its station; nil
        // for a name two stations share (it places the unit at neither).
        var named: [String: String?] = [:]
        if !units.isEmpty {
            for (stationID, topology) in stations.topologies {
                for pathway in topology.pathways {
                    pathwayStation[pathway.inventoryName] = stationID
                    for name in Set(pathway.names(withID: true)) {
                        named[name] = named[name] == nil ? stationID : named[name]! == stationID ? stationID : .some(nil)
                    }
                }
            }
        }
        // Each code of a station `STN_<code>[_<code>…]`, with its station; nil for a code two share.
        var coded: [String: String?] = [:]
        if units.contains(where: { $0.location.stationCode != nil }) {
            for station in stations.stations where station.id.hasPrefix(codePrefix) {
                for code in station.id.dropFirst(codePrefix.count).split(separator: "_").map(String.init) {
                    coded[code] = coded[code] == nil ? station.id : .some(nil)
                }
            }
        }
        let radius = Double(radiusMeters)
        var result: [String: [FacilityUnit]] = [:]
        var nowhere: [FacilityUnit] = []
        var counts: [Rule: Int] = [:]
        for var unit in units {
            unit.status = stale ? .unknown : unit.status(at: now)
            unit.inventory = inventory.rows(for: unit.unitID)
            var placed: [(station: String, meters: Double?)] = []
            var rule: Rule?
            func add(_ stationID: String?, by how: Rule, meters: Double? = nil) {
                guard let stationID, !placed.contains(where: { $0.station == stationID }) else { return }
                placed.append((stationID, meters))
                rule = rule ?? how
            }
            for row in unit.inventory {
                row.stopIDs.forEach { add(stations.station(for: $0)?.id, by: .inventory) }
                add(row.pathwayID.flatMap { pathwayStation[$0] }, by: .inventory)
            }
            if placed.isEmpty { unit.location.stopIDs.forEach { add(stations.station(for: $0)?.id, by: .feed) } }
            if placed.isEmpty, let code = unit.location.stationCode { add(stations.station(for: codePrefix + code)?.id ?? coded[code] ?? nil, by: .stationCode) }
            if placed.isEmpty, let ref = unit.location.stationRef ?? unit.location.stationCode {
                table.stopIDs(for: ref).forEach { add(stations.station(for: $0)?.id, by: .table) }
            }
            if placed.isEmpty, let position = unit.location.position {
                let near = stations.positions.stations(within: radius + tieMeters, of: position)
                if let nearest = near.first, nearest.meters <= radius {
                    for (index, meters) in near where meters <= nearest.meters + tieMeters {
                        add(stations.stations[index].id, by: .position, meters: meters)
                    }
                }
            }
            if placed.isEmpty, let stationID = named[unit.unitID] { add(stationID, by: .pathway) }
            if let rule { counts[rule, default: 0] += 1 }
            for (stationID, meters) in placed {
                var atStation = unit
                (atStation.joinedBy, atStation.distanceMeters) = (rule, meters)
                result[stationID, default: []].append(atStation)
            }
            if placed.isEmpty {
                unit.notJoined = whyNowhere(unit, table: table, radiusMeters: radiusMeters)
                nowhere.append(unit)
            }
        }
        return Joined(byStation: result, nowhere: nowhere, joinedBy: counts)
    }

    /// Why a unit is at no station, in plain words: what it names and why each places it nowhere.
    static func whyNowhere(_ unit: FacilityUnit, table: FacilityStationTable, radiusMeters: Int) -> String {
        let location = unit.location
        var why: [String] = []
        let quoted = { (texts: [String]) in texts.map { "'\(UpstreamText.quoted($0))'" }.joined(separator: ", ") }
        if !unit.inventory.isEmpty { why.append("its inventory rows name no stop or pathway of the station data") }
        if !location.stopIDs.isEmpty { why.append("the stops it names (\(quoted(location.stopIDs))) are no station's") }
        if let code = location.stationCode { why.append("no station's id holds its station code \(quoted([code]))") }
        if let ref = location.stationRef ?? location.stationCode {
            why.append(table.isEmpty ? "no station table is loaded to read its station reference \(quoted([ref]))"
                : table.stopIDs(for: ref).isEmpty ? "the station table has no row for its station reference \(quoted([ref]))"
                : "the station table's stops for its station reference \(quoted([ref])) are no station's")
        }
        why.append(location.position == nil ? "the feed gives no position for it" : "no station's stop is within \(radiusMeters) m of its position")
        return "At no station: " + why.joined(separator: "; ") + "."
    }

    /// WMATA's station ids: `STN_` and the station's codes.
    private static let codePrefix = "STN_"
}
