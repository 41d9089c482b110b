import StopSheetCore
import Testing

/// Which GTFS route_types are trains: every rail mode of the reference and of the extended types.
@Suite struct TrainRouteTypesTests {
    @Test func everyRailModeAndNothingElse() {
        let rail = TrainRouteTypes.rail
        for type in [0, 1, 2, 5, 7, 12, 100, 109, 199, 400, 401, 499, 900, 999] { #expect(rail.contains(type), "\(type)") }
        // Bus, ferry, aerial lift, trolleybus, and their extended ranges; coach, taxi, air.
        for type in [3, 4, 6, 11, 200, 700, 715, 800, 1000, 1300, 1100, 1500, 99, 500, -1] { #expect(!rail.contains(type), "\(type)") }
    }

    @Test func aListReadsBackAsWritten() {
        #expect(TrainRouteTypes(parsing: "0-2,5,7,12,100-199,400-499,900-999") == .rail)
        #expect(TrainRouteTypes(parsing: " 1 , 2")?.description == "1,2")
        for bad in ["", ",", "x", "2-1", "1-", "-", "1--2"] { #expect(TrainRouteTypes(parsing: bad) == nil, "\(bad)") }
    }
}
