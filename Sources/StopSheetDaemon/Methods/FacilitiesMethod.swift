import StopSheetCore
import StopSheetProtocol

/// `facilities`: the lift-status units at the stations (`Answer.Facilities`), from the current
/// snapshot's join, `available` units included.
extension StopSheetService {
    /// All units, or those of `stopID`'s station.
    func facilities(_ stopID: String?) throws(RPCError) -> [UInt8] {
        let generation = store.current
        let current = generation.encoded
        let snapshot = current.snapshot
        guard let stations = snapshot.stations else { throw notLoaded(.stations) }
        guard let data = snapshot.facilities else { throw notLoaded(.facilities) }
        var station: Station?
        if let stopID {
            station = stations.station(for: stopID)
            guard station != nil else { throw unknownStop(stopID) }
        }
        let listing = snapshot.facilityListing(at: station)
        let count = listing.reduce(0) { $0 + $1.units.count }
        return .object { writer in
            writer.members(Answer.Facilities.CodingKeys.self) { writer, key in
                switch key {
                case .stationId: if let station { writer.member(key, string: station.id) }
                case .count: writer.member(key, int: count)
                case .stale: writer.member(key, bool: data.isStale(at: snapshot.builtAt))
                case .units:
                    writer.array(key, of: listing.flatMap { entry in entry.units.map { (entry.station, $0) } }) { writer, pair in
                        let (station, unit) = pair
                        writer.members(Answer.FacilityUnit.CodingKeys.self) { writer, key in
                            switch key {
                            case .stationId: writer.member(key, string: station.id)
                            case .stationName: writer.member(key, string: station.name)
                            case .unitId: writer.member(key, string: unit.status.unitID)
                            case .facility: writer.member(key, word: unit.status.facility)
                            case .status: writer.member(key, word: unit.status.status)
                            case .serving: writer.member(key, string: unit.inventory.lazy.map(\.serving).first { !$0.isEmpty } ?? "")
                            case .pathways: writer.member(key, strings: StepFreeNow.pathwayIDs(of: unit, on: stations.topologies[station.id]))
                            case .since: writer.member(key, string: unit.status.since.map(current.zone.iso8601))
                            case .expectedBack: writer.member(key, string: unit.status.expectedBack.map(current.zone.iso8601))
                            case .description: writer.member(key, string: unit.status.description)
                            }
                        }
                    }
                }
            }
        }
    }
}
