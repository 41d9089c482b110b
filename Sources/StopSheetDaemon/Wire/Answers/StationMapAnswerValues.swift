import StopSheetCore
import StopSheetProtocol

/// `stationMap`'s answer (`Answer.StationMap`) from a station's map and its verdict, both made
/// when the snapshot was built: this only words them, walking nothing.
extension Answer.StationMap {
    /// Said of a station whose feed gives it no pathways.
    static let noMap = "The station data gives this station no map (no pathways), so its step-free ways cannot be drawn."

    init(stationID: String, topology: StationTopology?, now: StepFreeNow?) {
        guard let topology, !topology.pathways.isEmpty, let now, now.basis == .pathways else {
            self.init(stationId: stationID, map: nil, reason: Self.noMap)
            return
        }
        let street = topology.stationID + StationTopology.streetNodeSuffix
        let locations = topology.locations.map { location in
            let role: Answer.MapRole = switch location.role {
            case .entrance: .entrance
            case .platform: .platform
            case .boardingArea: .boardingArea
            case .genericNode: location.id == street ? .street : .node
            }
            return Answer.MapLocation(id: location.id, name: location.name, role: role, level: location.levelID)
        }
        let reference = { (outage: StepFreeNow.Outage) in
            Answer.OutageReference(source: outage.source, id: outage.alertID ?? outage.facilityID ?? "")
        }
        let pathways = topology.pathways.map { pathway in
            Answer.MapPathway(
                id: pathway.id, from: pathway.fromStopID, to: pathway.toStopID, mode: Answer.MapPathwayMode(pathway.mode),
                bidirectional: pathway.isBidirectional,
                names: Answer.PathwayNames(facilityId: pathway.facilityID, pathwayCode: pathway.pathwayCode, signpostedAs: pathway.signpostedAs,
                                           reversedSignpostedAs: pathway.reversedSignpostedAs),
                out: now.outages.filter { $0.status == .notAvailable && $0.pathways.contains(pathway.id) }.map(reference),
                // What may take it out: an unplaced outage's candidate, or a unit whose status is unknown.
                candidateOf: now.outages.filter { $0.candidates.contains(pathway.id) || ($0.status == .unknown && $0.pathways.contains(pathway.id)) }
                    .map(reference))
        }
        self.init(stationId: stationID, map: Answer.StationMapDrawing(locations: locations, pathways: pathways, platforms: now.platforms.map(\.answer)), reason: nil)
    }
}

extension Answer.MapPathwayMode {
    init(_ mode: PathwayMode) {
        self = switch mode {
        case .walkway: .walkway
        case .stairs: .stairs
        case .movingSidewalk: .movingSidewalk
        case .escalator: .escalator
        case .elevator: .elevator
        case .fareGate: .fareGate
        case .exitGate: .exitGate
        }
    }
}
