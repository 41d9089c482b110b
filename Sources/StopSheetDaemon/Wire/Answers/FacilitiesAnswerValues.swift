import StopSheetCore
import StopSheetProtocol

/// `facilities` as an answer (`Answer.Facilities`, `.FacilityUnit`): the snapshot's listing of
/// units with their placements, made at each call (it is asked seldom, by a deployer).
extension Snapshot {
    /// `station`: that station's units alone. `zone`: the agency's, which the times are shown in.
    func facilitiesAnswer(at station: Station?, stations: StationDirectory, data: FacilityData, in zone: TimeZoneRules) -> Answer.Facilities {
        let listing = facilityListing(at: station)
        let units = listing.flatMap { entry in
            let topology = entry.station.flatMap { stations.topologies[$0.id] }
            return entry.units.map { unit, placement in unit.answer(at: entry.station, placement, on: topology, in: zone) }
        }
        return Answer.Facilities(stationId: station?.id, count: units.count, stale: data.isStale(at: builtAt), units: units)
    }
}

extension FacilityUnit {
    func answer(at station: Station?, _ placement: FacilityPlacement, on topology: StationTopology?, in zone: TimeZoneRules) -> Answer.FacilityUnit {
        let ids = { (positions: [Int]) in positions.map { topology!.pathways[$0].id } }
        return Answer.FacilityUnit(stationId: station?.id ?? Answer.FacilityUnit.noStation, stationName: station?.name ?? Answer.FacilityUnit.noStation, unitId: unitID, facility: placement.kind(of: self, on: topology), status: status,
                                   serving: inventory.lazy.map(\.serving).first { !$0.isEmpty } ?? serving, pathways: ids(placement.pathways),
                                   placedBy: placement.rule, unplaced: placement.unplaced,
                                   candidates: placement.candidates.isEmpty ? nil : ids(placement.candidates),
                                   since: since.map(zone.iso8601), expectedBack: expectedBack.map(zone.iso8601), description: description,
                                   joinedBy: joinedBy, distance: distanceMeters.map { Int($0.rounded()) }, notJoined: notJoined)
    }
}
