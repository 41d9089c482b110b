import StopSheetCore
import StopSheetProtocol
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// What a unit serves in the `facilities` answer: the inventory's words when a row gives them
/// (the deployer's), else the status feed's own (FaSta's `description`, IDFM's `liftSituation,
/// liftDirection`), else empty. On `FacilitiesAnswerKindTests`' hand-made station.
@Suite struct FacilitiesAnswerServingTests {
    static func serving(_ unit: FacilityUnit) throws -> String {
        let stops = FacilitiesAnswerKindTests.stops, pathways = FacilitiesAnswerKindTests.pathways
        let topology = try #require(try GTFSPathwaysDecoder.decode(stops: stops, pathways: pathways).stations["S"])
        let station = Station(id: "S", name: "Central", platforms: try GTFSStopsDecoder.decode(stops).platforms)
        return unit.answer(at: station, FacilityPlacement.place(unit, on: topology), on: topology, in: TestZones.chicago).serving
    }

    @Test func theFeedsOwnWordsWhenNoInventorySays() throws {
        #expect(try Self.serving(FacilityUnit(unitID: "K9", facility: .elevator, status: .notAvailable, serving: "zu Gleis 1")) == "zu Gleis 1")
        let blank = FacilityInventory.Row(unitID: "K9", pathwayID: "L")
        #expect(try Self.serving(FacilityUnit(unitID: "K9", facility: .elevator, status: .notAvailable, serving: "zu Gleis 1", inventory: [blank])) == "zu Gleis 1")
        #expect(try Self.serving(FacilityUnit(unitID: "K9", facility: .elevator, status: .notAvailable)) == "")
    }

    @Test func theInventorysWordsWin() throws {
        let row = FacilityInventory.Row(unitID: "K9", pathwayID: "L", serving: "lobby to platform")
        #expect(try Self.serving(FacilityUnit(unitID: "K9", facility: .elevator, status: .notAvailable, serving: "zu Gleis 1", inventory: [row]))
                == "lobby to platform")
    }
}
