import Testing
@testable import StopSheetCore

/// The step-free graph and verdict on small hand-made stations, each written as the GTFS tables
/// a feed would carry and read through the decoder: every pathway mode, one-way and two-way,
/// boarding areas, entrances that are no street end, a redundant elevator, an elevator that is
/// the only way in, outages placed by number, by named node, and not placed at all.
@Suite struct StepFreeNowTests {
    /// A station `S` with `stops` (`id,location_type,parent,wheelchair_boarding`, one a line,
    /// beside the station row) and `pathways` (`id,from,to,mode,bidirectional[,signposted_as,facility_id,pathway_code]`).
    struct Feed {
        var stops: [String]
        var pathways: [String]
        var stationWheelchair = "1"

        var stopsTable: [UInt8] {
            Array((["stop_id,stop_name,location_type,parent_station,wheelchair_boarding", "S,Central,1,,\(stationWheelchair)"]
                + stops.map { line in
                    let field = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                    return "\(field[0]),\(field[0]) name,\(field[1]),\(field[2]),\(field.count > 3 ? field[3] : "")"
                }).joined(separator: "\n").utf8)
        }

        var pathwaysTable: [UInt8] {
            // Each row as wide as the header: a shorter one is a notice, and skipped.
            Array((["pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional,signposted_as,facility_id,pathway_code"]
                + pathways.map { $0 + String(repeating: ",", count: max(0, 8 - $0.split(separator: ",", omittingEmptySubsequences: false).count)) })
                .joined(separator: "\n").utf8)
        }

        func decoded() throws -> GTFSPathwaysDecoder.Decoded {
            try GTFSPathwaysDecoder.decode(stops: stopsTable, pathways: pathwaysTable)
        }

        func topology() throws -> StationTopology { try #require(try decoded().stations["S"]) }

        /// The station as the stops decoder sees it (its platforms, in stops order).
        func station() throws -> Station {
            let platforms = try GTFSStopsDecoder.decode(stopsTable).platforms
            return Station(id: "S", name: "Central", platforms: platforms.filter { $0.stationID == "S" })
        }

        func now(_ alerts: [Alert] = [], at now: Instant = Instant(secondsSince1970: 1_000)) throws -> StepFreeNow {
            StepFreeNow(station: try station(), topology: try topology(), applying: alerts, now: now)
        }
    }

    static func alert(_ id: String, _ headline: String, scopes: [AlertScope] = [.station("S")], details: AlertDetails = .init(),
                      periods: [ActivePeriod]? = nil) -> Alert {
        Alert(id: id, kindSource: periods.map(Alert.KindSource.periods) ?? .fromTime, headline: headline, description: "",
              scopes: scopes, details: details)
    }

    static func access(_ now: StepFreeNow) -> [String: [Bool?]] {
        Dictionary(uniqueKeysWithValues: now.platforms.map { ($0.stopID, [$0.entry, $0.exit]) })
    }

    // MARK: The graph

    @Test(arguments: [(1, true), (2, false), (3, true), (4, false), (5, true), (6, true), (7, true)])
    func everyPathwayMode(mode: Int, stepFree: Bool) throws {
        let feed = Feed(stops: ["E,2,S,1", "P,0,S"], pathways: ["W,E,P,\(mode),1"])
        let now = try feed.now()
        #expect(Self.access(now) == ["P": [stepFree, stepFree]])
        #expect(now.stepFree == (stepFree ? .available : .none))
        #expect(now.basis == .pathways)
        #expect(now.complete)
    }

    @Test func oneWayPathwaysGoOneWay() throws {
        // In through a one-way fare gate only: entry, no exit.
        var feed = Feed(stops: ["E,2,S,1", "N,3,S", "P,0,S"], pathways: ["G,E,N,6,0", "W,N,P,1,1"])
        #expect(Self.access(try feed.now()) == ["P": [true, false]])
        // Out through a one-way exit gate as well: both.
        feed.pathways.append("X,N,E,7,0")
        #expect(Self.access(try feed.now()) == ["P": [true, true]])
        // The same gate written the other way round leads nowhere new.
        feed.pathways[2] = "X,E,N,7,0"
        #expect(Self.access(try feed.now()) == ["P": [true, false]])
        // Two-way: both.
        feed.pathways[0] = "G,E,N,6,1"
        #expect(Self.access(try feed.now()) == ["P": [true, true]])
    }

    @Test func aBoardingAreaGivesItsPlatformAccess() throws {
        let feed = Feed(stops: ["E,2,S,1", "N,3,S", "P,0,S", "B,4,P", "Q,0,S", "QB,4,Q"],
                        pathways: ["W1,E,N,1,1", "L,N,B,5,1", "ST,N,QB,2,1"])
        let now = try feed.now()
        #expect(Self.access(now) == ["P": [true, true], "Q": [false, false]])
        #expect(now.stepFree == .partial)
        #expect(try feed.topology().location("B")?.role == .boardingArea(platformID: "P"))
    }

    @Test func anEntranceMarkedNotStepFreeIsNoStreetEnd() throws {
        // Its own 2: no start or end, even with a walkway to the platform.
        var feed = Feed(stops: ["E,2,S,2", "P,0,S"], pathways: ["W,E,P,1,1"])
        #expect(Self.access(try feed.now()) == ["P": [false, false]])
        // Its own value unknown (0, empty) in a station reported stepped: still a street end (the
        // entrance's own value decides, never its station's).
        feed.stationWheelchair = "2"
        feed.stops[0] = "E,2,S,0"
        #expect(Self.access(try feed.now()) == ["P": [true, true]])
        feed.stops[0] = "E,2,S,"
        #expect(Self.access(try feed.now()) == ["P": [true, true]])
        // A second, step-free entrance gives the platform both.
        feed.stops = ["E,2,S,2", "F,2,S,1", "P,0,S"]
        feed.pathways = ["W,E,P,1,1", "V,F,P,3,1"]
        #expect(Self.access(try feed.now()) == ["P": [true, true]])
    }

    @Test func aPlatformThePathwaysDoNotKnowHasNeitherEntryNorExit() throws {
        let feed = Feed(stops: ["E,2,S,1", "P,0,S"], pathways: ["W,E,P,1,1"])
        let unknown = Platform(stopID: "X", stationID: "S", stationName: "Central", routes: [], stepFree: true)
        let station = Station(id: "S", name: "Central", platforms: try feed.station().platforms + [unknown])
        let now = StepFreeNow(station: station, topology: try feed.topology(), applying: [], now: Instant(secondsSince1970: 1_000))
        #expect(Self.access(now) == ["P": [true, true], "X": [false, false]])
        #expect(now.stepFree == .partial)
    }

    // MARK: Outages

    /// Street → lobby → two elevators (signposted 1 and 2) → platform.
    static let twoElevators = Feed(stops: ["E,2,S,1", "N,3,S", "P,0,S"],
                                   pathways: ["W,E,N,1,1", "L1,N,P,5,1,1", "L2,N,P,5,1,2", "ST,N,P,2,1"])

    @Test func aRedundantElevatorKeepsThePlatform() throws {
        let now = try Self.twoElevators.now([Self.alert("a", "Elevator 1 unavailable at Central")])
        #expect(now.outages == [.init(alertID: "a", facility: .elevator, facilityID: "1", pathways: ["L1"], placedBy: .id)])
        #expect(Self.access(now) == ["P": [true, true]])
        #expect(now.stepFree == .available)
        #expect(now.complete)
        // Both out: the stairs are left, and they are not step-free.
        let both = try Self.twoElevators.now([Self.alert("a", "Elevator 1 unavailable"), Self.alert("b", "Elevator 2 out of service")])
        #expect(both.outages.map(\.pathways) == [["L1"], ["L2"]])
        #expect(both.stepFree == .none)
    }

    @Test func anElevatorThatIsTheOnlyWayInLosesEntryAndKeepsExit() throws {
        // In: street → lobby → elevator → platform. Out: a one-way ramp from the platform to a
        // second entrance.
        let feed = Feed(stops: ["E,2,S,1", "F,2,S,1", "N,3,S", "P,0,S", "Q,0,S"],
                        pathways: ["W,E,N,1,1", "L,N,P,5,1,,963", "R,P,F,1,0", "WQ,N,Q,1,1"])
        #expect(Self.access(try feed.now()) == ["P": [true, true], "Q": [true, true]])
        let now = try feed.now([Self.alert("a", "Elevator 963 unavailable")])
        #expect(Self.access(now) == ["P": [false, true], "Q": [true, true]])
        #expect(now.stepFree == .partial)
        #expect(now.outages == [.init(alertID: "a", facility: .elevator, facilityID: "963", pathways: ["L"], placedBy: .id)])
    }

    @Test func anOutageIsPlacedByFacilityIDPathwayCodeOrSignpostedAs() throws {
        let feed = Feed(stops: ["E,2,S,1", "N,3,S", "P,0,S"],
                        pathways: ["W,E,N,1,1", "A,N,P,5,1,7", "B,N,P,5,1,,8", "C,N,P,5,1,,,9", "D,N,P,1,1,10"])
        for (number, pathway) in [("7", "A"), ("8", "B"), ("9", "C")] {
            let now = try feed.now([Self.alert("a", "Elevator \(number) is closed")])
            #expect(now.outages.first?.pathways == [pathway])
        }
        // Only elevators are taken out: a walkway signposted 10 is not one.
        let walkway = try feed.now([Self.alert("a", "Elevator 10 is closed")])
        #expect(walkway.outages.first?.pathways == [])
        #expect(!walkway.complete)
    }

    @Test func anOutageNamingANodeTakesOutTheElevatorsEndingThere() throws {
        let feed = Feed(stops: ["E,2,S,1", "N,3,S", "M,3,S", "P,0,S", "B,4,P"],
                        pathways: ["W,E,N,1,1", "L1,N,M,5,1", "W2,M,B,1,1", "L2,E,M,5,1"])
        // Naming M takes out both elevators ending there, whatever the headline.
        let accessibility = AlertDetails(effect: "ACCESSIBILITY_ISSUE")
        let now = try feed.now([Self.alert("a", "Lift out of order", scopes: [.station("M")], details: accessibility)])
        #expect(now.outages == [.init(alertID: "a", facility: .other, facilityID: nil, pathways: ["L1", "L2"], placedBy: .stopReference)])
        #expect(now.stepFree == .none)
        // Naming the boarding area at the end of no elevator places nothing; a platform or an
        // entrance is no unit's end either.
        for stop in ["B", "P", "E"] {
            let none = try feed.now([Self.alert("a", "Elevator unavailable", scopes: [.station(stop)])])
            #expect(none.outages.first?.pathways == [])
            #expect(!none.complete)
            #expect(none.stepFree == .available)
        }
        // An escalator outage naming the node takes out no elevator, and leaves the verdict complete.
        let escalator = try feed.now([Self.alert("a", "Escalator out of service", scopes: [.station("M")])])
        #expect(escalator.outages == [.init(alertID: "a", facility: .escalator, facilityID: nil, pathways: [])])
        #expect(escalator.complete)
        #expect(escalator.stepFree == .available)
    }

    /// Street → lobby N → an elevator to the boarding area B of platform P: naming B takes it
    /// out, whichever end of the pathway B is.
    @Test(arguments: ["L,N,B,5,1", "L,B,N,5,1"])
    func anOutageNamingABoardingAreaTakesOutTheElevatorEndingThere(_ elevator: String) throws {
        let feed = Feed(stops: ["E,2,S,1", "N,3,S", "P,0,S", "B,4,P"], pathways: ["W,E,N,1,1", elevator])
        #expect(Self.access(try feed.now()) == ["P": [true, true]])
        let now = try feed.now([Self.alert("a", "Elevator unavailable", scopes: [.station("B")])])
        #expect(now.outages == [.init(alertID: "a", facility: .elevator, facilityID: nil, pathways: ["L"], placedBy: .stopReference)])
        #expect(Self.access(now) == ["P": [false, false]])
        #expect(now.stepFree == .none)
        #expect(now.complete)
    }

    @Test func anUnresolvedElevatorOutageLeavesTheVerdictIncomplete() throws {
        // Either elevator may be "Elevator 3"; the platform keeps step-free access with any one out.
        let now = try Self.twoElevators.now([Self.alert("a", "Elevator 3 unavailable")])
        #expect(now.outages == [.init(alertID: "a", facility: .elevator, facilityID: "3", pathways: [], unplaced: .noRuleMatched,
                                      candidates: ["L1", "L2"])])
        #expect(!now.complete)
        #expect(now.stepFree == .available)
        // With one elevator, it is that one, perhaps: the platform's access is not said.
        let one = Feed(stops: ["E,2,S,1", "N,3,S", "P,0,S"], pathways: ["W,E,N,1,1", "L1,N,P,5,1,1", "ST,N,P,2,1"])
        let sole = try one.now([Self.alert("a", "Elevator 3 unavailable")])
        #expect(Self.access(sole) == ["P": [nil, nil]] && sole.stepFree == .unknown && !sole.complete)
        // An escalator alert is no elevator's.
        let escalator = try one.now([Self.alert("a", "Escalator 3 unavailable")])
        #expect(Self.access(escalator) == ["P": [true, true]] && escalator.complete && escalator.outages.map(\.candidates) == [[]])
    }

    @Test func onlyActiveOutagesCountAndElevatorsComeFirst() throws {
        let future = [ActivePeriod(start: Instant(secondsSince1970: 2_000), end: nil)]
        let alerts = [Self.alert("esc", "Escalators not in service"),
                      Self.alert("planned", "Elevator 1 unavailable", periods: future),
                      Self.alert("back", "Elevator 2 back in service", details: .init(impact: "Elevator Status")),
                      Self.alert("other", "Platform access", details: .init(effect: "ACCESSIBILITY_ISSUE")),
                      Self.alert("lift", "Elevator 2 unavailable")]
        let now = try Self.twoElevators.now(alerts)
        #expect(now.outages.map(\.alertID) == ["lift", "esc", "other"])
        #expect(now.outages.map(\.facility) == [.elevator, .escalator, .other])
        // Once the planned one starts, it counts.
        let later = try Self.twoElevators.now(alerts, at: Instant(secondsSince1970: 2_000))
        #expect(later.outages.map(\.alertID) == ["planned", "lift", "esc", "other"])
        #expect(later.stepFree == .none)
    }

    /// Without pathways each platform's reported value is its entry and exit; an elevator alert
    /// that could be any of the station's elevators makes each `true` unsaid, never "available".
    @Test func aStationWithoutPathwaysGivesItsReportedValueUntilAnElevatorIsOut() throws {
        let feed = Feed(stops: ["P,0,S", "Q,0,S,2"], pathways: [])
        let quiet = StepFreeNow(station: try feed.station(), topology: nil, applying: [], now: .init(secondsSince1970: 0))
        #expect(quiet.basis == .stations && quiet.complete && quiet.stepFree == .partial)
        #expect(Self.access(quiet) == ["P": [true, true], "Q": [false, false]])
        let now = try feed.now([Self.alert("a", "Elevator 1 unavailable")])
        #expect(now.basis == .stations)
        #expect(Self.access(now) == ["P": [nil, nil], "Q": [false, false]])
        #expect(now.stepFree == .unknown)
        #expect(!now.complete)
        // An escalator alert changes nothing.
        let escalator = try feed.now([Self.alert("e", "Escalator 1 unavailable")])
        #expect(Self.access(escalator) == Self.access(quiet) && escalator.complete)
    }

    // MARK: Decoding

    @Test func badPathwayRowsAreNoticesAndSkipped() throws {
        let feed = Feed(stops: ["E,2,S,1", "P,0,S", "T,2,", "B,4,P"],
                        pathways: ["W,E,P,1,1", ",E,P,1,1", "X,E,Nowhere,1,1", "Y,S,P,1,1", "Z,E,P,9,1", "V,E,P,1,2", "W,P,E,1,1", "U,E,T,1,1",
                                   "K,E,B,5,0"])
        let decoded = try feed.decoded()
        #expect(decoded.notices.first == [
            FeedNotices.Notice(file: "pathways.txt", line: 3, problem: "empty pathway_id"),
            FeedNotices.Notice(file: "pathways.txt", line: 4, problem: "to_stop_id 'Nowhere' names no entrance, platform, node or boarding area of a station"),
            FeedNotices.Notice(file: "pathways.txt", line: 5, problem: "from_stop_id 'S' is a station, not a location within one"),
            FeedNotices.Notice(file: "pathways.txt", line: 6, problem: "pathway_mode '9' is not 1 to 7"),
            FeedNotices.Notice(file: "pathways.txt", line: 7, problem: "is_bidirectional '2' is not 0 or 1"),
            FeedNotices.Notice(file: "pathways.txt", line: 8, problem: "pathway_id 'W' repeats an earlier row"),
            FeedNotices.Notice(file: "pathways.txt", line: 9, problem: "to_stop_id 'T' names no entrance, platform, node or boarding area of a station"),
        ])
        #expect(try feed.topology().pathways.map(\.id) == ["W", "K"])
    }

    @Test func everyDocumentedFieldIsRead() throws {
        let stops = Array("stop_id,stop_name,location_type,parent_station,wheelchair_boarding,level_id\nS,Central,1,,1,\nE,Street,2,S,1,L0\nP,Platform 1,0,S,,L1\n".utf8)
        let pathways = Array("""
            pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional,length,traversal_time,stair_count,max_slope,min_width,signposted_as,reversed_signposted_as,facility_id,pathway_code,extra
            A,E,P,2,1,12.5,30,-20,-0.1,1.2,Platforms,Exit,F1,C1,ignored
            B,E,P,1,0,-1,0,x,nan,0,,,,,
            """.utf8)
        let levels = Array("level_id,level_index,level_name\nL0,0,Street\nL1,-1.5,\n,1,x\nL2,up,\nL0,3,again\n".utf8)
        let decoded = try GTFSPathwaysDecoder.decode(stops: stops, pathways: pathways, levels: levels)
        let topology = try #require(decoded.stations["S"])
        #expect(topology.pathways == [
            Pathway(id: "A", fromStopID: "E", toStopID: "P", mode: .stairs, isBidirectional: true, length: 12.5, traversalTime: 30, stairCount: -20,
                    maxSlope: -0.1, minWidth: 1.2, signpostedAs: "Platforms", reversedSignpostedAs: "Exit", facilityID: "F1", pathwayCode: "C1"),
            Pathway(id: "B", fromStopID: "E", toStopID: "P", mode: .walkway, isBidirectional: false),
        ])
        #expect(topology.location("P") == .init(id: "P", role: .platform, name: "Platform 1", levelID: "L1"))
        #expect(topology.location("E") == .init(id: "E", role: .entrance(streetEnd: true), name: "Street", levelID: "L0"))
        #expect(decoded.levels == [Level(id: "L0", index: 0, name: "Street"), Level(id: "L1", index: -1.5)])
        #expect(decoded.notices.first.map { "\($0.file) row \($0.line): \($0.problem)" } == [
            "pathways.txt row 3: length '-1' is not a non-negative number (left out)",
            "pathways.txt row 3: traversal_time '0' is not a positive whole number (left out)",
            "pathways.txt row 3: stair_count 'x' is not a whole number (left out)",
            "pathways.txt row 3: max_slope 'nan' is not a number (left out)",
            "pathways.txt row 3: min_width '0' is not a positive number (left out)",
            "levels.txt row 4: empty level_id",
            "levels.txt row 5: level_index 'up' is not a number",
            "levels.txt row 6: level_id 'L0' repeats an earlier row",
        ])
    }

    @Test func anUnreadablePathwaysTableIsOneNoticeAndNoPathways() throws {
        let stops = Feed(stops: ["E,2,S,1", "P,0,S"], pathways: []).stopsTable
        let decoded = try GTFSPathwaysDecoder.decode(stops: stops, pathways: Array("pathway_id,from_stop_id\nW,E\n".utf8))
        #expect(decoded.notices.first.map(\.file) == ["pathways.txt"])
        #expect(decoded.notices.first.first?.problem.contains("column to_stop_id") == true)
        #expect(try #require(decoded.stations["S"]).pathways.isEmpty)
        let notUTF8 = try GTFSPathwaysDecoder.decode(stops: stops, pathways: [0x70, 0xFF, 0x0A])
        #expect(notUTF8.notices.count == 1)
    }

    // MARK: Which alerts are outages

    /// The byte-by-byte reading of ASCII text gives what the Character reading gives.
    @Test(arguments: ["Elevator at 69th Temporarily Out-of-Service", "  ELEVATOR_CLOSURE ", "Elevator #963\tback in service!", "", "---",
                      "Výtah mimo provoz", "Ascensor fuera de servicio: ELEVATOR 7", "Zurbaranbarri-Bilbao 2nd floor"])
    func alertWordsAsTheCharacterReadingGivesThem(text: String) {
        #expect(AlertWords.words(text) == text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init))
    }

    @Test func phrasesAreRunsOfWords() {
        let words = ["elevator", "back", "in", "service", "not", "out"]
        #expect(AlertWords.contains(words, phrase: ["back", "in", "service"]))
        #expect(!AlertWords.contains(words, phrase: ["in", "back"]))
        #expect(!AlertWords.contains(words, phrase: ["out", "of"]))
        #expect(AlertWords.contains(words, phrase: ["out"]))
        #expect(!AlertWords.contains([], phrase: ["out"]))
    }

    @Test func facilityOutagesByEffectDetailImpactAndWords() {
        func outage(_ headline: String, _ details: AlertDetails = .init()) -> AlertOutage? {
            AlertOutage(Self.alert("a", headline, details: details))
        }
        #expect(outage("Platform access", .init(effect: "ACCESSIBILITY_ISSUE"))?.facility == .other)
        #expect(outage("Works", .init(effectDetail: "ELEVATOR_CLOSURE"))?.facility == .elevator)
        #expect(outage("Works", .init(effectDetail: "escalator closure"))?.facility == .escalator)
        #expect(outage("Status", .init(impact: "Elevator Status"))?.facility == .elevator)
        // Other CTA accessibility impacts are advisories, not outages, unless the words say so.
        #expect(outage("Clark/Division Station Platform Access", .init(impact: "Accessiblity Note")) == nil)
        // An agency that marks its elevator outages OTHER_EFFECT: the words.
        #expect(outage("Elevators 3 and 4 not in service", .init(effect: "OTHER_EFFECT"))?.facility == .elevator)
        #expect(outage("Escalator at Main St. Out-of-Service")?.facility == .escalator)
        #expect(outage("Elevator and escalator closed")?.facility == .elevator)
        #expect(outage("Elevator 963 unavailable, Elevator 964 too")?.elevatorNumbers == ["963", "964"])
        // Words alone, without an outage word or without a unit, are none.
        #expect(outage("New elevator opens at Main St.") == nil)
        #expect(outage("Station closed") == nil)
        // A return to service is never an outage, whatever says it.
        #expect(outage("Elevator at 69th Back in Service", .init(impact: "Elevator Status", effect: "ACCESSIBILITY_ISSUE")) == nil)
        // Text-only outages are advisories; a plain station alert is not.
        #expect(AccessibilityAdvisory.isAdvisory(Self.alert("a", "Elevator 1 unavailable", details: .init(effect: "OTHER_EFFECT"))))
        #expect(AccessibilityAdvisory.isAdvisory(Self.alert("a", "Works", details: .init(effectDetail: "ELEVATOR_CLOSURE"))))
        #expect(!AccessibilityAdvisory.isAdvisory(Self.alert("a", "Station closed")))
    }
}
