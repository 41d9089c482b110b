import StopSheetCore
import StopSheetProtocol
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// A unit's kind is decided once (`FacilityPlacement.kind(of:on:)`): the `facilities` answer
/// gives the kind the verdict counts. A hand-made station: street → lobby → elevator `L`
/// (`facility_id` K9) → platform, and a walkway `RAMP` beside it.
@Suite struct FacilitiesAnswerKindTests {
    static let stops = Array("""
        stop_id,stop_name,location_type,parent_station,wheelchair_boarding
        S,Central,1,,1
        E,Central Entrance,2,S,1
        N,Central Lobby,3,S,
        P,Central Platform,0,S,
        """.utf8)
    static let pathways = Array("""
        pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional,facility_id
        W,E,N,1,1,
        L,N,P,5,1,K9
        RAMP,N,P,1,1,
        """.utf8)

    /// The kind of `unit` in the verdict's outages and in the `facilities` answer.
    static func kinds(_ unit: FacilityUnit) throws -> (verdict: [FacilityKind], answer: FacilityKind) {
        let topology = try #require(try GTFSPathwaysDecoder.decode(stops: stops, pathways: pathways).stations["S"])
        let station = Station(id: "S", name: "Central", platforms: try GTFSStopsDecoder.decode(stops).platforms)
        let now = StepFreeNow(station: station, topology: topology, outages: [], facilities: [unit])
        let answer = unit.answer(at: station, FacilityPlacement.place(unit, on: topology), on: topology, in: TestZones.chicago)
        return (now.outages.map(\.facility), answer.facility)
    }

    @Test func aUnitOfNoStatedKindOnAnElevatorIsAnElevatorInBoth() throws {
        let kinds = try Self.kinds(FacilityUnit(unitID: "K9", facility: .other, status: .notAvailable))
        #expect(kinds.verdict == [.elevator] && kinds.answer == .elevator)
    }

    @Test func aUnitOfNoStatedKindOnAWalkwayStaysOther() throws {
        let kinds = try Self.kinds(FacilityUnit(unitID: "RAMP", facility: .other, status: .notAvailable))
        #expect(kinds.verdict == [.other] && kinds.answer == .other)
    }

    @Test func aStatedKindIsTheFeeds() throws {
        let kinds = try Self.kinds(FacilityUnit(unitID: "K9", facility: .elevator, status: .notAvailable))
        #expect(kinds.verdict == [.elevator] && kinds.answer == .elevator)
    }
}
