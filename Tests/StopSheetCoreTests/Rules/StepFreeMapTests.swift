import Testing
import StopSheetTestSupport
@testable import StopSheetCore

/// A map without entrances (issue 46): TfL's `<station>-Outside` node is the street; a map that
/// shows no street says nothing (`unknown`, with a reason), never `none`; and the button's
/// status from the map where the station data gives none. Small hand-made stations, read
/// through the decoders as `StepFreeNowTests`' are.
@Suite struct StepFreeMapTests {
    typealias Feed = StepFreeNowTests.Feed

    /// Two platforms: `P` reached both ways from `street`, `Q` only entered (a one-way lift down).
    static func feed(street: String, wheelchair: String = "") -> Feed {
        var feed = Feed(stops: [street, "N,3,S", "P,0,S", "Q,0,S"],
                        pathways: ["W,\(street.split(separator: ",")[0]),N,1,1", "LP,N,P,5,1", "LQ,N,Q,5,0"])
        feed.stationWheelchair = wheelchair
        return feed
    }

    static func directory(_ feed: Feed) throws -> StationDirectory {
        var decoded = try GTFSStopsDecoder.decode(feed.stopsTable)
        decoded.topologies = try feed.decoded().stations
        return StationDirectory(decoded)
    }

    @Test func theOutsideNodeIsTheStreet() throws {
        let now = try Self.feed(street: "S-Outside,3,S").now()
        #expect(StepFreeNowTests.access(now) == ["P": [true, true], "Q": [true, false]])
        #expect(now.stepFree == .partial && now.complete && now.reason == nil)
        #expect(try Self.feed(street: "S-Outside,3,S").topology().hasStreet)
        // Another station's Outside node, or a node merely named so, is no street of this one.
        let other = try Self.feed(street: "T-Outside,3,S").now()
        #expect(other.stepFree == .unknown)
    }

    @Test func aMapThatShowsNoStreetIsUnknownNeverNone() throws {
        let now = try Self.feed(street: "X,3,S").now()
        #expect(now.stepFree == .unknown && !now.complete && now.reason == .noStreet)
        #expect(now.platforms.allSatisfy { $0.entry == nil && $0.exit == nil })
        // A stepped entrance is a street the map knows: no step-free way from it is `none`.
        let stepped = try Self.feed(street: "E,2,S,2").now()
        #expect(stepped.stepFree == .none && stepped.complete && stepped.reason == nil)
    }

    @Test func theButtonTakesTheMapsStatusWhereTheStationDataGivesNone() throws {
        // No wheelchair_boarding: P is step-free both ways, Q is not (no way back up).
        let station = try #require(try Self.directory(Self.feed(street: "S-Outside,3,S")).station(for: "S"))
        #expect(station.stepFreeFrom == .pathways && station.platforms.map(\.stepFree) == [true, false])
        #expect(station.stepFree == .available && station.partial)
        let sheet = StopSheet(station: station, alerts: [])
        #expect(sheet.accessibilityButton.stepFreeFrom == .pathways)
        #expect(sheet.accessibilityButton.alert.message == "Step-free access is available at Central.")
        // The station data's own value stands, whatever the map shows.
        let reported = try #require(try Self.directory(Self.feed(street: "S-Outside,3,S", wheelchair: "2")).station(for: "S"))
        #expect(reported.stepFreeFrom == .stations && reported.stepFree == .none)
        // A map without a street gives nothing: unknown, from the station data.
        let blind = try #require(try Self.directory(Self.feed(street: "X,3,S")).station(for: "S"))
        #expect(blind.stepFreeFrom == .stations && blind.stepFree == .unknown)
        // A map whose street reaches no platform: none, in the spec's words.
        var none = Self.feed(street: "S-Outside,3,S")
        none.pathways = ["LP,N,P,5,1"]
        let cut = try #require(try Self.directory(none).station(for: "S"))
        #expect(cut.stepFreeFrom == .pathways && cut.stepFree == .none && !cut.partial)
        #expect(StopSheet(station: cut, alerts: []).accessibilityButton.alert.message == "The agency currently reports no step-free access at Central.")
    }

    @Test func tflsLiftFeedIsRecognisedAndEachLiftIsOneUnit() throws {
        let body = #"""
        [{"stationUniqueId":"S","disruptedLiftUniqueIds":["S-Lift-1 ","S-Lift-2"],"message":"One\nout"},
         {"stationUniqueId":"S","disruptedLiftUniqueIds":["S-Lift-1"],"message":"One  out"},
         {"stationUniqueId":"S","disruptedLiftUniqueIds":["S-Lift-1"],"message":"Two"},
         {"stationUniqueId":"S","disruptedLiftUniqueIds":[]}, 7]
        """#
        let feed = try FacilitiesDecoder.decode(json: Array(body.utf8), local: .notKnown)
        #expect(feed.format == .tfl && !feed.format.saysSince)
        #expect(feed.units.map(\.unitID) == ["S-Lift-1", "S-Lift-2"])
        // Each distinct message once, in order ("One  out" is "One\nout" made safe).
        #expect(feed.units[0].description == "One out / Two")
        #expect(feed.units.allSatisfy { $0.status == .notAvailable && $0.facility == .elevator && $0.since == nil && $0.location.stopIDs == ["S"] })
        #expect(feed.notices.count == 2)
    }

    @Test func aLiftIsPlacedOnEveryPathwayEndingInItsID() throws {
        var feed = Feed(stops: ["S-Outside,3,S", "N,3,S", "P,0,S"],
                        pathways: ["S-Outside-N-same_level,S-Outside,N,1,1", "N-P-lift-S-Lift-1,N,P,5,1", "N-P-lift-S-Lift-10,N,P,5,1"])
        feed.stationWheelchair = ""
        let unit = FacilityUnit(unitID: "S-Lift-1", facility: .elevator, status: .notAvailable)
        let topology = try feed.topology()
        #expect(FacilityPlacement.place(unit, on: topology) == .placed(.id, pathways: [topology.pathways.firstIndex { $0.id == "N-P-lift-S-Lift-1" }!]))
        let now = StepFreeNow(station: try feed.station(), topology: try feed.topology(), outages: [], facilities: [unit])
        #expect(now.stepFree == .available && now.outages.first?.pathways == ["N-P-lift-S-Lift-1"])
    }
}

/// TfL's `Lifts.csv` as an inventory: what each lift serves, in its own areas' names.
@Suite struct TfLLiftsInventoryTests {
    @Test func eachLiftServesItsAreasByName() throws {
        let body = Array("""
            StationUniqueId,LiftUniqueId,LiftId,NationalRailUprn,LiftName,FriendlyName,FromAreas,IntermediateAreas,IntermediateAreas2,ToAreas,LimitedCapacityLift,LiftNotes\r
            940GZZLUWYP,940GZZLUWYP-Lift-2,2,,,Lift 2,940GZZLUWYP-1000257-BookH-8,,,940GZZLUWYP-1000257-JubNB-2|940GZZLUWYP-1000257-Met2-12,False,\r
            910GROMFORD,910GROMFORD-Lift-1 ,1,,,,910GROMFORD-1001243-EntM-3,,,910GROMFORD-1001243-RPL-5-6,False,\r
            910GROMFORD,,3,,,Lift C,,,,,False,\r
            """.utf8)
        let (inventory, notices) = try FacilityInventoryDecoder.decode(body)
        #expect(inventory.rows.map(\.unitID) == ["940GZZLUWYP-Lift-2", "910GROMFORD-Lift-1"])
        #expect(inventory.rows.map(\.stopIDs) == [["940GZZLUWYP"], ["910GROMFORD"]])
        #expect(inventory.rows.map(\.serving) == ["Lift 2: BookH to JubNB, Met2", "EntM to RPL-5"])
        // The lift without an id is skipped, and the notice names its line (the header is line 1).
        #expect(notices.count == 1)
        #expect(notices.first == [FeedNotices.Notice(file: "Lifts.csv", line: 4, problem: "LiftUniqueId is empty; skipped")])
    }

    @Test func blankLinesAreNeitherLiftsNorNotices() throws {
        // A blank line, and a line of one empty quoted field: spacing, not a lift without an id.
        let body = Array("""
            StationUniqueId,LiftUniqueId,FriendlyName\r
            \r
            940GZZLUWYP,940GZZLUWYP-Lift-2,Lift 2\r
            ""\r
            \r
            940GZZLUWYP,940GZZLUWYP-Lift-5,Lift 5\r

            """.utf8)
        let (inventory, notices) = try FacilityInventoryDecoder.decode(body)
        #expect(inventory.rows.map(\.unitID) == ["940GZZLUWYP-Lift-2", "940GZZLUWYP-Lift-5"])
        #expect(notices.count == 0)
    }

    @Test func theRealFileNamesEveryLift() throws {
        let (inventory, notices) = try FacilityInventoryDecoder.decode(Fixtures.bytes("facilities/tfl/detailed/Lifts.csv"))
        #expect(inventory.rows.count == 546 && notices.count == 0)
        #expect(inventory.rows(for: "940GZZLUWYP-Lift-5").map(\.serving) == ["Lift 5: BookH to E-STA"])
        #expect(inventory.rows.allSatisfy { !$0.serving.isEmpty && $0.stopIDs.count == 1 })
    }
}
