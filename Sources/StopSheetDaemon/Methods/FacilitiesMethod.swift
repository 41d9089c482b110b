import StopSheetCore
import StopSheetProtocol

/// `facilities`: the lift-status units at the stations (`Answer.Facilities`), from the current
/// snapshot's join, `available` units included.
extension StopSheetService {
    /// All units, or those of `stopID`'s station.
    func facilities(_ stopID: String?) throws(RPCError) -> PreEncoded<Answer.Facilities> {
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
        let units = listing.flatMap { entry in
            entry.units.map { unit, placement in
                let topology = entry.station.flatMap { stations.topologies[$0.id] }
                let ids = { (positions: [Int]) in positions.map { topology!.pathways[$0].id } }
                return Answer.FacilityUnit(stationId: entry.station?.id ?? "", stationName: entry.station?.name ?? "", unitId: unit.status.unitID, facility: unit.status.facility,
                                           status: unit.status.status, serving: unit.inventory.lazy.map(\.serving).first { !$0.isEmpty } ?? "",
                                           pathways: ids(placement.pathways), placedBy: placement.rule, unplaced: placement.unplaced,
                                           candidates: placement.candidates.isEmpty ? nil : ids(placement.candidates),
                                           since: unit.status.since.map(current.zone.iso8601), expectedBack: unit.status.expectedBack.map(current.zone.iso8601),
                                           description: unit.status.description)
            }
        }
        return PreEncoded(Answer.Facilities(stationId: station?.id, count: count, stale: data.isStale(at: snapshot.builtAt), units: units))
    }
}
