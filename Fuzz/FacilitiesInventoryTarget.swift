@testable import StopSheetCore
@testable import StopSheetDaemon
@testable import StopSheetProtocol

/// Fuzz target (see Entry.swift): an inventory body (`--facilities-inventory-url`: NYCT's
/// equipments JSON or the deployer's CSV), joined with the hand-made NYCT and SIRI-FM statuses on
/// the real topologies and the lift fixtures' stations, built and rendered. Beyond "no crash":
/// every unit has an id and a place (stops or a pathway), only a CSV row names a pathway, each
/// unit's rows are found by its id, and a unit whose inventory names a station's stop is at
/// that station.
public func facilitiesInventoryFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    let inventory: FacilityInventory
    do {
        (inventory, _) = try FacilityInventoryDecoder.decode(body, limits: DecodingLimits(maxDepth: 64, maxItems: 500))
    } catch {
        precondition(!error.description.isEmpty, "a failure must say why")
        return 0
    }
    let isJSON = UpstreamBody.firstSignificantByte(UpstreamBody.withoutByteOrderMark(body)).map { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "{") } ?? false
    for unit in inventory.rows {
        precondition(!unit.unitID.isEmpty, "a unit without an id")
        precondition(isJSON ? unit.pathwayID == nil : !unit.stopIDs.isEmpty || unit.pathwayID != nil, "a unit without a place")
        precondition(unit.stopIDs.allSatisfy { !$0.isEmpty }, "an empty stop id")
        precondition(inventory.rows(for: unit.unitID).contains(unit), "a unit not found by its id")
    }
    for statuses in FuzzFixtures.liftStatuses {
        for directory in [FuzzFixtures.liftStations] + RealTopology.all.map(\.directory) {
            let placed = FacilityJoin.join(statuses, inventory: inventory, stations: directory, at: facilitiesNow).byStation
            for status in statuses {
                for stationID in Set(inventory.rows(for: status.unitID).flatMap(\.stopIDs).compactMap { directory.station(for: $0)?.id }) {
                    precondition(placed[stationID]?.contains { $0.unitID == status.unitID } == true,
                                 "\(status.unitID): its inventory names \(stationID), where it is not")
                }
            }
        }
    }
    placeAndRender(FuzzFixtures.liftStatuses.flatMap { $0 }, inventory: inventory, producedAt: nil)
    return 0
}

extension FuzzFixtures {
    /// The hand-made NYCT and SIRI-FM feeds' units, as their decoders read them.
    static let liftStatuses: [[FacilityUnit]] = {
        let nyct = try! FacilitiesBody.decode(read("facilities/nyct_ene.HANDMADE.json"), local: zones.chicago).units
        let siri = try! FacilitiesBody.decode(read("facilities/siri_fm.HANDMADE.xml"), local: zones.chicago).units
        return [nyct, siri]
    }()
}
