import Foundation
@testable import StopSheetDaemon
import StopSheetCore
import StopSheetProtocol
import Testing

/// `stationMap`'s answer (issue 51) on WMATA's real map (Tests/Fixtures/gtfs-pathways/wmata-2026-04),
/// from the snapshot's own verdict: a station with a lift out, one with an unplaced elevator out,
/// and a station without a map.
@Suite struct StationMapTests {
    static let map = Result { () throws -> StepFreeWaysTests.Map in try StepFreeWaysTests.map("gtfs-pathways/wmata-2026-04") }

    static func answer(_ stationID: String, units: [FacilityUnit]) throws -> (Answer.StationMap, StepFreeNow) {
        let stations = try map.get().stations
        let station = try #require(stations.station(for: stationID))
        let topology = stations.topologies[station.id]
        let now = StepFreeNow(station: station, topology: topology, outages: [], facilities: units)
        return (Answer.StationMap(stationID: station.id, topology: topology, now: now), now)
    }

    @Test func aStationWithALiftOut() throws {
        let (answer, now) = try Self.answer("STN_A08", units: [FacilityUnit(unitID: "A08_111123", facility: .elevator, status: .notAvailable)])
        let map = try #require(answer.map.value)
        #expect(answer.reason == nil && answer.stationId == "STN_A08")
        // Every location and pathway of the station's map, in the feed's order.
        let topology = try #require(try Self.map.get().stations.topologies["STN_A08"])
        #expect(map.locations.map(\.id) == topology.locations.map(\.id))
        #expect(map.pathways.map(\.id) == topology.pathways.map(\.id))
        #expect(map.locations.first { $0.id == "ENT_A08_E_EL" }?.role == .entrance)
        #expect(map.locations.first { $0.id == "PF_A08_C" }?.role == .platform)
        #expect(map.locations.first { $0.id == "PF_A08_C" }?.level.value == "A08_L2")
        // The lift out is the one pathway out, by the unit that took it; nothing is a candidate.
        let lift = try #require(map.pathways.first { $0.id == "A08_111123" })
        #expect(lift.mode == .elevator && lift.from == "NODE_A08_N_ELE1_TP" && lift.to == "NODE_A08_N_ELE1_BT" && lift.bidirectional)
        #expect(lift.out == [Answer.OutageReference(source: .facilities, id: "A08_111123")])
        #expect(map.pathways.filter { !$0.out.isEmpty }.map(\.id) == ["A08_111123"])
        #expect(map.pathways.allSatisfy { $0.candidateOf.isEmpty })
        // The platforms are the verdict's, ways and all.
        #expect(map.platforms == now.platforms.map(\.answer))
        #expect(map.platforms.first?.via?.map(\.entry.value) == [true, false])
    }

    @Test func aStationWithAnUnplacedElevatorOut() throws {
        let (answer, now) = try Self.answer("STN_A03", units: [FacilityUnit(unitID: "no such lift", facility: .elevator, status: .notAvailable)])
        let map = try #require(answer.map.value)
        let topology = try #require(try Self.map.get().stations.topologies["STN_A03"])
        // Every elevator of the station may be it; none is out.
        #expect(map.pathways.filter { !$0.candidateOf.isEmpty }.map(\.id) == topology.elevatorPathways.map { topology.pathways[$0].id })
        #expect(map.pathways.allSatisfy { $0.out.isEmpty })
        #expect(map.pathways.first { !$0.candidateOf.isEmpty }?.candidateOf == [Answer.OutageReference(source: .facilities, id: "no such lift")])
        #expect(now.complete == false)
        #expect(map.platforms.contains { $0.via?.contains { $0.entry.value == nil } == true })
    }

    /// TfL's map has no entrances: a station's street is its generic node `<station>-Outside`, drawn
    /// as the street, and its other generic nodes as nodes.
    @Test func tflsOutsideNodeIsTheStreet() throws {
        let stations = StationDirectory(try GTFSFeeds.stationsWithMaps(in: GTFSFeeds.tests + "/Fixtures/facilities/tfl/gtfs"))
        var streets = 0, nodes = 0
        for station in stations.stations.prefix(60) {
            let topology = stations.topologies[station.id]
            let now = StepFreeNow(station: station, topology: topology, outages: [], facilities: [])
            guard let map = Answer.StationMap(stationID: station.id, topology: topology, now: now).map.value else { continue }
            for location in map.locations where location.role == .street || location.role == .node {
                #expect((location.role == .street) == (location.id == station.id + "-Outside"), "\(location.id)")
                if location.role == .street { streets += 1 } else { nodes += 1 }
            }
        }
        #expect(streets > 10 && nodes > 10)
    }

    @Test func aStationWithoutAMap() throws {
        // A station of CTA's demo data: no pathways at all.
        let station = Station(id: "40380", name: "Clark/Lake", platforms: [])
        let answer = Answer.StationMap(stationID: station.id, topology: nil, now: nil)
        #expect(answer.map == nil && answer.reason == Answer.StationMap.noMap)
    }
}
