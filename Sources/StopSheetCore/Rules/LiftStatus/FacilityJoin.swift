/// The first step of placing a lift-status unit: which station it is at, with the status that
/// counts at a moment and its inventory rows. The second, where it is on that station's
/// pathways, is `FacilityPlacement`'s.
///
/// A unit is at the station of (the first that names one):
/// 1. its inventory rows' stops (`--facilities-inventory-url`), or a pathway an inventory row
///    names (the station whose topology has it);
/// 2. the feed's own stop ids (SIRI-FM's `StopPlaceRef`/`StopPointRef`);
/// 3. WMATA's `StationCode`, as the station whose id holds it: `STN_A01`, or the transfer
///    complex `STN_A01_C01` (WMATA's GTFS gives a station of two lines one id with both codes);
/// 4. the station whose pathway has the unit's id as its `facility_id`, `pathway_code`,
///    `signposted_as` or `pathway_id` (a SIRI-FM `FacilityRef` alone), when one station's does.
/// A unit at none is at no station (`Joined.nowhere`: listed, counted, never in a verdict). One
/// at several stations (an NYCT unit between two complexes) counts at each.
public enum FacilityJoin {
    public struct Joined: Sendable {
        /// The units at each station, by station id, each with its inventory rows.
        public var byStation: [String: [FacilityUnit]]
        /// The units at no station, in feed order.
        public var nowhere: [FacilityUnit]
    }

    /// The units at each station (by station id), in feed order, each with its inventory rows and
    /// its status as it counts at `now`, `available` ones left out unless `keepAvailable` (a
    /// `facilities` listing wants them; a verdict does not). With `stale` (the data is older than
    /// its stale-after), every unit's status is `unknown`. The units at no station are `nowhere`.
    public static func join(_ units: [FacilityUnit], inventory: FacilityInventory = .empty, stations: StationDirectory,
                            at now: Instant, stale: Bool = false, keepAvailable: Bool = false) -> Joined {
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
        var result: [String: [FacilityUnit]] = [:]
        var nowhere: [FacilityUnit] = []
        for var unit in units {
            unit.status = stale ? .unknown : unit.status(at: now)
            guard keepAvailable || unit.status != .available else { continue }
            unit.inventory = inventory.rows(for: unit.unitID)
            var placed: [String] = []
            func add(_ stationID: String?) {
                if let stationID, !placed.contains(stationID) { placed.append(stationID) }
            }
            for row in unit.inventory {
                row.stopIDs.forEach { add(stations.station(for: $0)?.id) }
                add(row.pathwayID.flatMap { pathwayStation[$0] })
            }
            if placed.isEmpty { unit.location.stopIDs.forEach { add(stations.station(for: $0)?.id) } }
            if placed.isEmpty, let code = unit.location.stationCode { add(stations.station(for: codePrefix + code)?.id ?? coded[code] ?? nil) }
            if placed.isEmpty, let stationID = named[unit.unitID] { add(stationID) }
            for stationID in placed { result[stationID, default: []].append(unit) }
            if placed.isEmpty { nowhere.append(unit) }
        }
        return Joined(byStation: result, nowhere: nowhere)
    }

    /// WMATA's station ids: `STN_` and the station's codes.
    private static let codePrefix = "STN_"
}
