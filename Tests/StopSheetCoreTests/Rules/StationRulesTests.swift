import Testing
@testable import StopSheetCore

@Suite struct StationRulesTests {
    @Test func nameIsTrimmedAndCollapsed() {
        #expect(StationDirectory.normalisedName("  California  (Blue Line)\t") == "California (Blue Line)")
        #expect(StationDirectory.normalisedName("95th/Dan Ryan") == "95th/Dan Ryan")
        #expect(StationDirectory.normalisedName(" \n ") == "")
    }

    @Test(arguments: [
        ([true, false], StepFreeStatus.available, true),
        ([true, true], .available, false),
        ([false, false], .none, false),
        ([false, nil], .none, true),
        ([nil, true], .available, true),
        ([nil, nil], .unknown, false),
        ([], .unknown, false),
    ] as [([Bool?], StepFreeStatus, Bool)])
    func stepFreeAggregate(platforms: [Bool?], expected: StepFreeStatus, partial: Bool) {
        #expect(StepFreeStatus.aggregate(platforms) == expected)
        #expect(StepFreeStatus.isPartial(platforms) == partial)
    }

    @Test func stationGathersItsPlatforms() {
        let clarkLake = RulesTestData.station("40380")
        #expect(clarkLake.name == "Clark/Lake")
        #expect(clarkLake.platforms.map(\.stopID) == ["30374", "30375", "30074"])
        #expect(clarkLake.routes == [.blue, .brown, .orange, .purpleExpress, .pink])
        #expect(clarkLake.stepFree == .available)
        #expect(clarkLake.partial)
        #expect(RulesTestData.station("40040").stepFree == .none)
        #expect(RulesTestData.station("40900").stepFree == .unknown)
    }

    @Test func platformIdsResolveToTheirStation() {
        let directory = RulesTestData.directory
        #expect(directory.station(for: "30074")?.id == "40380")
        #expect(directory.station(for: "40380")?.id == "40380")
        #expect(directory.station(for: "49999") == nil)
        #expect(directory.station(for: "") == nil)
        #expect(directory.stations.map(\.id) == ["40040", "40380", "40900", "40990"])
    }

    /// An entrance's id (Prague's `ENT_N06_S_PAV`) names its station, as its platforms do; an
    /// entrance that shares a station's or a platform's id does not take it over.
    @Test func entranceIdsNameTheirStation() {
        let platforms = [Platform(stopID: "U1", stationID: "N06", stationName: "Nádraží Holešovice", routes: [], stepFree: nil),
                         Platform(stopID: "U2", stationID: "N07", stationName: "Vltavská", routes: [], stepFree: nil)]
        let entrances = [Entrance(id: "ENT_N06_S_PAV", stationID: "N06", name: "Vstup", stepFree: true),
                         Entrance(id: "U2", stationID: "N06", name: "Clash", stepFree: nil),
                         Entrance(id: "N07", stationID: "N06", name: "Clash", stepFree: nil)]
        let directory = StationDirectory(platforms: platforms, entrances: entrances, agencies: [])
        #expect(directory.station(for: "ENT_N06_S_PAV")?.id == "N06")
        #expect(directory.station(for: "U2")?.id == "N07", "a platform's id stays its own")
        #expect(directory.station(for: "N07")?.id == "N07", "a station's id stays its own")
        #expect(directory.station(for: "ENT_N06") == nil)
    }

    @Test func aRepeatedStopIdKeepsItsFirstRow() {
        let directory = StationDirectory(platforms: [
            RulesTestData.platform("30001", "40001", "  First  Name ", [.red], true),
            RulesTestData.platform("30001", "40002", "Other", [.blue], false),
        ])
        #expect(directory.count == 1)
        #expect(directory.station(for: "30001")?.name == "First Name")
    }
}
