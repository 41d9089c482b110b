import Testing
@testable import StopSheetCore

/// Step-free now from lift-status units (`--facilities-url`) beside alerts: each placement rule,
/// each status, stale data, and stations without pathways. Stations are hand-made GTFS tables
/// read through the decoder; expectations are literal.
@Suite struct StepFreeFacilitiesTests {
    typealias Feed = StepFreeNowTests.Feed

    static let at = Instant(secondsSince1970: 1_000)

    static func unit(_ id: String, _ status: FacilityUnit.Status, facility: FacilityKind = .elevator,
                     levels: [String] = [], inventory: [FacilityInventory.Row] = [], isADA: Bool? = nil) -> FacilityUnit {
        FacilityUnit(unitID: id, facility: facility, status: status, since: Instant(secondsSince1970: 500),
                     description: "Lift \(id)", isADA: isADA, location: .init(levels: levels), inventory: inventory)
    }

    /// A station made from its own tables: its platforms, and the topology of its pathways.
    static func station(_ id: String, _ name: String, stops: [UInt8], pathways: [UInt8]) throws -> (Station, StationTopology) {
        let topology = try #require(try GTFSPathwaysDecoder.decode(stops: stops, pathways: pathways).stations[id])
        return (Station(id: id, name: name, platforms: try GTFSStopsDecoder.decode(stops).platforms), topology)
    }

    static func now(_ feed: Feed, _ units: [FacilityUnit], alerts: [Alert] = []) throws -> StepFreeNow {
        StepFreeNow(station: try feed.station(), topology: try feed.topology(),
                    outages: alerts.compactMap(AlertOutage.init), facilities: units)
    }

    /// Street → lobby → elevators L1 (`facility_id` 1, `pathway_code` K1) and L2 (signposted 2) → P;
    /// only L3 (code K3) reaches Q.
    static let station = Feed(stops: ["E,2,S,1", "N,3,S", "P,0,S", "Q,0,S"],
                              pathways: ["W,E,N,1,1", "L1,N,P,5,1,,1,K1", "L2,N,P,5,1,2", "L3,N,Q,5,1,,,K3"])

    @Test func aUnitOutTakesItsPathwayOut() throws {
        let now = try Self.now(Self.station, [Self.unit("K3", .notAvailable)])
        #expect(StepFreeNowTests.access(now) == ["P": [true, true], "Q": [false, false]])
        #expect(now.stepFree == .partial && now.complete)
        #expect(now.outages == [.init(alertID: nil, facility: .elevator, facilityID: "K3", pathways: ["L3"], source: .facilities,
                                      status: .notAvailable, since: Instant(secondsSince1970: 500), description: "Lift K3")])
    }

    @Test func eachIdColumnPlacesAUnit() throws {
        // facility_id 1, signposted_as 2, pathway_id L3: each its pathway.
        let now = try Self.now(Self.station, [Self.unit("1", .notAvailable), Self.unit("2", .notAvailable), Self.unit("L3", .notAvailable)])
        #expect(now.outages.map(\.pathways) == [["L1"], ["L2"], ["L3"]])
        #expect(now.stepFree == .none)
    }

    @Test func unknownIsNeitherUpNorOut() throws {
        // The only elevator to Q: Q's access is not said, and the verdict is not complete.
        let now = try Self.now(Self.station, [Self.unit("K3", .unknown)])
        #expect(StepFreeNowTests.access(now) == ["P": [true, true], "Q": [nil, nil]])
        #expect(now.stepFree == .partial && !now.complete)
        #expect(now.outages.map(\.status) == [.unknown])
        // One of P's two elevators: P does not depend on it.
        let redundant = try Self.now(Self.station, [Self.unit("K1", .unknown)])
        #expect(StepFreeNowTests.access(redundant) == ["P": [true, true], "Q": [true, true]])
        #expect(redundant.stepFree == .available && redundant.complete)
        // The other one out and this one unknown: P now depends on it.
        let depends = try Self.now(Self.station, [Self.unit("K1", .unknown), Self.unit("2", .notAvailable)])
        #expect(StepFreeNowTests.access(depends) == ["P": [nil, nil], "Q": [true, true]])
        #expect(depends.stepFree == .partial && !depends.complete)
    }

    @Test func unknownBesideAnAlertOnTheSameWay() throws {
        // An alert takes L3 out; K3 unknown changes nothing: Q is out whatever it is.
        let alert = StepFreeNowTests.alert("a", "Elevator 9 unavailable", details: .init())
        var feed = Self.station
        feed.pathways[3] = "L3,N,Q,5,1,9,,K3"
        let now = try Self.now(feed, [Self.unit("K3", .unknown)], alerts: [alert])
        #expect(StepFreeNowTests.access(now) == ["P": [true, true], "Q": [false, false]])
        #expect(now.complete)
        #expect(now.outages.map(\.source) == [.alerts, .facilities])
    }

    @Test func partlyAvailableStaysUpAndIsListed() throws {
        let now = try Self.now(Self.station, [Self.unit("K3", .partiallyAvailable), Self.unit("K1", .available)])
        #expect(now.stepFree == .available && now.complete)
        #expect(now.outages.map(\.facilityID) == ["K3"] && now.outages.map(\.status) == [.partiallyAvailable])
    }

    @Test func anUnplacedLiftIsUnresolved() throws {
        // No rule places ELEV-99: any of the station's three elevators may be it. P has two (either
        // alone leaves it step-free); Q has only L3, so Q's access is not said.
        let now = try Self.now(Self.station, [Self.unit("ELEV-99", .notAvailable), Self.unit("ESC-1", .notAvailable, facility: .escalator)])
        #expect(StepFreeNowTests.access(now) == ["P": [true, true], "Q": [nil, nil]])
        #expect(now.stepFree == .partial && !now.complete)
        #expect(now.outages.map(\.isUnresolved) == [true, false])
        #expect(now.outages.map(\.unplaced) == [.noRuleMatched, .noRuleMatched])
        #expect(now.outages.map(\.candidates) == [["L1", "L2", "L3"], []])
        // Partly available: nothing is out, whatever it is.
        let partly = try Self.now(Self.station, [Self.unit("ELEV-99", .partiallyAvailable)])
        #expect(partly.stepFree == .available && partly.complete)
    }

    /// WMATA's real shape, hand-made: end nodes named after the station, their levels in
    /// `stop_desc` (two spaces and capitals as published). Street → mezzanine by elevator S (and
    /// by escalator ES); mezzanine → platform A by elevator A, → platform B by elevator B (both
    /// "Between Mezzanine and  Platform"); platform C by a ramp from the mezzanine.
    static let wmata = (stops: Array("""
        stop_id,stop_name,stop_desc,location_type,parent_station,wheelchair_boarding
        STN_X01_Y01,Junction,,1,,1
        ENT,Junction,Junction Entrance,2,STN_X01_Y01,1
        S_TP,Junction,Top of Elevator Between Street and  Mezzanine,3,STN_X01_Y01,
        S_BT,Junction,Bottom of Elevator Between Street and  Mezzanine,3,STN_X01_Y01,
        ES_TP,Junction,Top of Escalator Between Street and  Mezzanine,3,STN_X01_Y01,
        A_TP,Junction,Top of Elevator Between Mezzanine and  Platform,3,STN_X01_Y01,
        A_BT,Junction,BOTTOM OF ELEVATOR BETWEEN MEZZANINE AND  PLATFORM,3,STN_X01_Y01,
        B_TP,Junction,Top of Elevator Between Mezzanine and  Platform,3,STN_X01_Y01,
        B_BT,Junction,Bottom of Elevator Between Mezzanine and  Platform,3,STN_X01_Y01,
        PA,Junction A,,0,STN_X01_Y01,1
        PB,Junction B,,0,STN_X01_Y01,1
        PC,Junction C,,0,STN_X01_Y01,1
        """.utf8), pathways: Array("""
        pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional
        W1,ENT,S_TP,1,1
        S,S_TP,S_BT,5,1
        W2,ENT,ES_TP,1,1
        ES_UP,S_BT,ES_TP,4,0
        ES_DOWN,ES_TP,S_BT,4,0
        W3,S_BT,A_TP,1,1
        W4,S_BT,B_TP,1,1
        A,A_TP,A_BT,5,1
        B,B_TP,B_BT,5,1
        W5,A_BT,PA,1,1
        W6,B_BT,PB,1,1
        RAMP,S_BT,PC,1,1
        """.utf8))

    static func wmataNow(_ units: [FacilityUnit]) throws -> StepFreeNow {
        let (station, topology) = try Self.station("STN_X01_Y01", "Junction", stops: Self.wmata.stops, pathways: Self.wmata.pathways)
        return StepFreeNow(station: station, topology: topology, outages: [], facilities: units)
    }

    @Test func wmataStopDescPlacesTheElevator() throws {
        let now = try Self.wmataNow([Self.unit("X01S", .notAvailable, levels: FacilityLevels.levels("Elevator between STREET and mezzanine, east side"))])
        #expect(now.outages.map(\.pathways) == [["S"]] && now.outages.map(\.unplaced) == [nil])
        #expect(now.stepFree == .none && now.complete)
    }

    @Test func anEscalatorIsPlacedOnItsEscalatorAndTakesOutNoElevator() throws {
        let unit = Self.unit("X01S", .notAvailable, facility: .escalator, levels: ["street", "mezzanine"])
        let topology = try Self.station("STN_X01_Y01", "Junction", stops: Self.wmata.stops, pathways: Self.wmata.pathways).1
        // Up and down are two escalators between the same levels; neither is an elevator.
        #expect(FacilityPlacement.place(unit, on: topology) == .unplaced(.ambiguous, candidates: [3, 4]))
        let now = try Self.wmataNow([unit])
        #expect(now.outages.map(\.candidates) == [["ES_UP", "ES_DOWN"]] && now.stepFree == .available && now.complete)
        let one = try Self.wmataNow([Self.unit("X01S", .notAvailable, facility: .escalator, inventory: [.init(unitID: "X01S", pathwayID: "ES_UP")])])
        #expect(one.outages.map(\.pathways) == [["ES_UP"]] && one.stepFree == .available && one.complete)
    }

    /// Two elevators between the mezzanine and the platform: either may be the one out, so each
    /// platform only one of them serves is not said; the platform the ramp serves is.
    @Test func anAmbiguousElevatorLeavesEachPlatformItCouldCutUnsaid() throws {
        let now = try Self.wmataNow([Self.unit("X01A", .notAvailable, levels: ["platform", "mezzanine"])])
        #expect(StepFreeNowTests.access(now) == ["PA": [nil, nil], "PB": [nil, nil], "PC": [true, true]])
        #expect(now.stepFree == .partial && !now.complete)
        #expect(now.outages.map(\.unplaced) == [.ambiguous] && now.outages.map(\.candidates) == [["A", "B"]])
        // Unknown status: the same.
        #expect(StepFreeNowTests.access(try Self.wmataNow([Self.unit("X01A", .unknown, levels: ["mezzanine", "platform"])]))
                == ["PA": [nil, nil], "PB": [nil, nil], "PC": [true, true]])
    }

    @Test func aGarageElevatorIsOffTheMapAndLeavesTheVerdictAlone() throws {
        for description in ["Garage elevator", "Elevator between bike trail and mezzanine"] {
            let now = try Self.wmataNow([Self.unit("X01G", .notAvailable, levels: FacilityLevels.levels(description))])
            #expect(now.outages.map(\.unplaced) == [.offTheMap] && now.outages.map(\.candidates) == [[]], "\(description)")
            #expect(now.stepFree == .available && !now.complete, "\(description)")
        }
        // A side is no place off the map: "East elevator" could be any of them.
        let side = try Self.wmataNow([Self.unit("X01E", .notAvailable, levels: FacilityLevels.levels("East elevator"))])
        #expect(side.outages.map(\.unplaced) == [.noRuleMatched] && side.stepFree == .unknown)
    }

    @Test func levelsOnTheMapButNoElevatorBetweenThemMatchNoRule() throws {
        // Street and platform are both on the map; no one elevator joins them: any may be out.
        let now = try Self.wmataNow([Self.unit("X01Q", .notAvailable, levels: ["street", "platform"])])
        #expect(now.outages.map(\.unplaced) == [.noRuleMatched] && now.outages.map(\.candidates) == [["S", "A", "B"]])
        #expect(StepFreeNowTests.access(now) == ["PA": [nil, nil], "PB": [nil, nil], "PC": [nil, nil]] && now.stepFree == .unknown)
    }

    @Test func eachRuleIsNamed() throws {
        let topology = try Self.station("STN_X01_Y01", "Junction", stops: Self.wmata.stops, pathways: Self.wmata.pathways).1
        let rule = { (unit: FacilityUnit) in FacilityPlacement.place(unit, on: topology).rule }
        #expect(rule(Self.unit("U", .notAvailable, inventory: [.init(unitID: "U", pathwayID: "B")])) == .inventory)
        #expect(rule(Self.unit("U", .notAvailable, inventory: [.init(unitID: "U", stopIDs: ["A_BT"])])) == .stopReference)
        #expect(rule(Self.unit("RAMP", .notAvailable)) == .id)
        #expect(rule(Self.unit("B_TP", .notAvailable)) == .node)
        #expect(rule(Self.unit("U", .notAvailable, levels: ["street", "mezzanine"])) == .levels)
        #expect(FacilityPlacement.place(Self.unit("U", .notAvailable), on: nil) == .unplaced(.noRuleMatched, candidates: []))
    }

    @Test func levelsAreReadWhateverTheSpacingAndCase() {
        #expect(FacilityLevels.levels("Top of Elevator Between Street and  Platform") == ["street", "platform"])
        #expect(FacilityLevels.levels("Elevator between  Mezzanine Level   and PLATFORM (Shady Grove side)") == ["mezzanine level", "platform"])
        #expect(FacilityLevels.levels("Garage elevator") == ["garage"])
        #expect(FacilityLevels.levels("Top of Elevator Between Street Platform") == [])
        #expect(FacilityLevels.levels("Elevator") == [])
    }

    /// One reading of a level for every comparison: a unit's, a location's, a `levels.txt` name.
    @Test func aLevelIsItsWordsTheWordLevelAside() {
        #expect(FacilityLevels.words("Mezzanine Level") == ["mezzanine"])
        #expect(FacilityLevels.words("  MEZZANINE ") == FacilityLevels.words("mezzanine level"))
        #expect(FacilityLevels.words("Street/Mezzanine") == ["street", "mezzanine"])
        #expect(FacilityLevels.words("Silver Line Platform") == ["silver", "line", "platform"])
    }

    @Test func inventoryPlacesFirst() throws {
        // The inventory's pathway beats the id's own match (K1 is L1's code).
        let byPathway = try Self.now(Self.station, [Self.unit("K1", .notAvailable, inventory: [.init(unitID: "K1", pathwayID: "L3")])])
        #expect(byPathway.outages.map(\.pathways) == [["L3"]])
        // An inventory stop that is an elevator's end node: every elevator ending there (N: all three).
        let byNode = try Self.now(Self.station, [Self.unit("X", .notAvailable, inventory: [.init(unitID: "X", stopIDs: ["N"])])])
        #expect(byNode.outages.map(\.pathways) == [["L1", "L2", "L3"]])
        // A platform is no unit's place: the next rule (here none) decides.
        let byPlatform = try Self.now(Self.station, [Self.unit("X", .notAvailable, inventory: [.init(unitID: "X", stopIDs: ["Q"])])])
        #expect(byPlatform.outages.map(\.pathways) == [[]])
    }

    @Test func aUnitNamedByItsEndNode() throws {
        let feed = Feed(stops: ["E,2,S,1", "N,3,S", "T,3,S", "P,0,S"], pathways: ["W,E,N,1,1", "L,N,T,5,1", "WP,T,P,1,1"])
        let now = try Self.now(feed, [Self.unit("T", .notAvailable)])
        #expect(now.outages.map(\.pathways) == [["L"]] && now.stepFree == .none)
    }

    /// WMATA's shape: end nodes named by the two levels; an incident's words find its elevator.
    @Test func wmataLevelsPlaceTheOneMatchingElevator() throws {
        let stops = Array("""
            stop_id,stop_name,location_type,parent_station,wheelchair_boarding
            STN_A03,Dupont Circle,1,,1
            E1,Dupont Circle Entrance,2,STN_A03,1
            N1,Top of Elevator Between Street and Mezzanine,3,STN_A03,
            N2,Bottom of Elevator Between Street and Mezzanine,3,STN_A03,
            N3,Top of Elevator Between Mezzanine and Platform,3,STN_A03,
            N4,Bottom of Elevator Between Mezzanine and Platform,3,STN_A03,
            PF_A03_C,Dupont Circle Platform,0,STN_A03,1
            """.utf8)
        let pathways = Array("""
            pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional
            W1,E1,N1,1,1
            EL1,N1,N2,5,1
            W2,N2,N3,1,1
            EL2,N3,N4,5,1
            W3,N4,PF_A03_C,1,1
            """.utf8)
        let (station, topology) = try Self.station("STN_A03", "Dupont Circle", stops: stops, pathways: pathways)
        let unit = Self.unit("A03N04", .notAvailable, levels: ["mezzanine", "platform"])
        let now = StepFreeNow(station: station, topology: topology, outages: [], facilities: [unit])
        #expect(now.outages.map(\.pathways) == [["EL2"]])
        #expect(StepFreeNowTests.access(now) == ["PF_A03_C": [false, false]])
        // The words in the other order name the same elevator.
        let reversed = StepFreeNow(station: station, topology: topology, outages: [],
                                   facilities: [Self.unit("A03N04", .notAvailable, levels: ["street", "mezzanine"])])
        #expect(reversed.outages.map(\.pathways) == [["EL1"]])
        // An escalator between the same levels is no elevator: it places none (WMATA's
        // escalators share the levels' words, and sometimes the unit's id).
        let escalator = StepFreeNow(station: station, topology: topology, outages: [],
                                    facilities: [Self.unit("A03N04", .notAvailable, facility: .escalator, levels: ["mezzanine", "platform"])])
        #expect(escalator.outages.map(\.pathways) == [[]] && escalator.stepFree == .available)
        // Levels no node names: unresolved.
        let none = StepFreeNow(station: station, topology: topology, outages: [],
                               facilities: [Self.unit("A03N04", .notAvailable, levels: ["street", "platform"])])
        #expect(none.outages.map(\.pathways) == [[]] && !none.complete)
    }

    @Test func twoElevatorsBetweenTheSameLevelsAreAmbiguous() throws {
        let stops = Array("""
            stop_id,stop_name,location_type,parent_station,wheelchair_boarding
            STN_B01,Gallery Place,1,,1
            E1,Entrance,2,STN_B01,1
            N1,Top of Elevator Between Street and Mezzanine,3,STN_B01,
            N2,Bottom of Elevator Between Street and Mezzanine,3,STN_B01,
            N3,Top of Elevator Between Street and Mezzanine,3,STN_B01,
            P,Platform,0,STN_B01,1
            """.utf8)
        let pathways = Array("""
            pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional
            W1,E1,N1,1,1
            W3,E1,N3,1,1
            EL1,N1,N2,5,1
            EL2,N3,N2,5,1
            W2,N2,P,1,1
            """.utf8)
        let (station, topology) = try Self.station("STN_B01", "Gallery Place", stops: stops, pathways: pathways)
        let now = StepFreeNow(station: station, topology: topology, outages: [],
                              facilities: [Self.unit("B01N01", .notAvailable, levels: ["street", "mezzanine"])])
        #expect(now.outages.map(\.pathways) == [[]] && !now.complete && now.stepFree == .available)
    }

    /// NYC: no pathways; a unit out could be any of the station's elevators unless the feed or
    /// the inventory marks it not ADA, or redundant.
    @Test func withoutPathwaysAnElevatorOutIsAnyElevatorUnlessNotADAOrRedundant() {
        let station = Station(id: "A41", name: "Jay St-MetroTech",
                              platforms: [Platform(stopID: "A41N", stationID: "A41", stationName: "Jay St-MetroTech", routes: [], stepFree: true),
                                          Platform(stopID: "A41S", stationID: "A41", stationName: "Jay St-MetroTech", routes: [], stepFree: false)])
        let sole = Self.unit("EL318", .notAvailable, inventory: [.init(unitID: "EL318", stopIDs: ["A41"], isADA: true, isRedundant: false)])
        let now = StepFreeNow(station: station, topology: nil, outages: [], facilities: [sole])
        #expect(now.basis == .stations && now.stepFree == .unknown && !now.complete)
        #expect(now.platforms.map(\.entry) == [nil, false] && now.platforms.map(\.exit) == [nil, false])
        let standIn = Self.unit("EL319", .notAvailable, inventory: [.init(unitID: "EL319", stopIDs: ["A41"], isADA: true, isRedundant: true)])
        let notADA = Self.unit("EL320", .notAvailable, isADA: false)
        let escalator = Self.unit("ES258X", .notAvailable, facility: .escalator,
                                  inventory: [.init(unitID: "ES258X", isADA: false, isRedundant: false)])
        let partly = Self.unit("EL321", .partiallyAvailable)
        let listed = StepFreeNow(station: station, topology: nil, outages: [], facilities: [standIn, notADA, escalator, partly])
        #expect(listed.stepFree == .partial && listed.complete && listed.outages.map(\.facilityID) == ["EL319", "EL320", "EL321", "ES258X"])
        #expect(listed.platforms.map(\.entry) == [true, false])
        // Without an inventory, nothing marks it not ADA or redundant: it could be any elevator.
        let noInventory = StepFreeNow(station: station, topology: nil, outages: [], facilities: [Self.unit("EL318", .notAvailable)])
        #expect(noInventory.stepFree == .unknown && !noInventory.complete)
        // So could a unit whose status is unknown (every unit of stale data).
        let unknown = StepFreeNow(station: station, topology: nil, outages: [], facilities: [Self.unit("EL318", .unknown)])
        #expect(unknown.platforms.map(\.exit) == [nil, false])
    }

    @Test func theJoinFindsEachUnitsStation() {
        let platforms = [Platform(stopID: "A41N", stationID: "A41", stationName: "Jay St", routes: [], stepFree: true),
                         Platform(stopID: "R29N", stationID: "R29", stationName: "Jay St", routes: [], stepFree: true),
                         Platform(stopID: "PF_A03_C", stationID: "STN_A03", stationName: "Dupont Circle", routes: [], stepFree: true),
                         Platform(stopID: "U1234P", stationID: "U1234", stationName: "Hauptbahnhof", routes: [], stepFree: true)]
        let directory = StationDirectory(platforms: platforms)
        let inventory = FacilityInventory(rows: [.init(unitID: "EL318", stopIDs: ["A41", "R29"], isADA: true, isRedundant: false)])
        let statuses = [
            FacilityUnit(unitID: "EL318", facility: .elevator, status: .notAvailable),
            FacilityUnit(unitID: "EL319", facility: .elevator, status: .notAvailable, since: Instant(secondsSince1970: 2_000),
                           expectedBack: Instant(secondsSince1970: 3_000), isUpcoming: true, location: .init(stopIDs: ["A41N"])),
            FacilityUnit(unitID: "A03N04", facility: .elevator, status: .notAvailable, location: .init(stationCode: "A03")),
            FacilityUnit(unitID: "ELEV-7", facility: .elevator, status: .available, location: .init(stopIDs: ["U1234"])),
            FacilityUnit(unitID: "nowhere", facility: .elevator, status: .notAvailable),
            FacilityUnit(unitID: "A99X01", facility: .elevator, status: .notAvailable, location: .init(stationCode: "A99")),
        ]
        let early = FacilityJoin.join(statuses, inventory: inventory, stations: directory, at: Instant(secondsSince1970: 1_000)).notAvailable
        #expect(early.mapValues { $0.map(\.unitID) } == ["A41": ["EL318"], "R29": ["EL318"], "STN_A03": ["A03N04"]])
        #expect(early["A41"]?.first?.inventory.first?.isRedundant == false)
        let during = FacilityJoin.join(statuses, inventory: inventory, stations: directory, at: Instant(secondsSince1970: 2_000)).notAvailable
        #expect(during["A41"]?.map(\.unitID) == ["EL318", "EL319"])
        // Stale: every unit unknown, the available one too.
        let stale = FacilityJoin.join(statuses, inventory: inventory, stations: directory, at: Instant(secondsSince1970: 1_000), stale: true).byStation
        #expect(stale["U1234"]?.map(\.status) == [.unknown] && stale["A41"]?.map(\.status) == [.unknown, .unknown])
        // Units no rule puts at a station are kept, at none.
        let joined = FacilityJoin.join(statuses, inventory: inventory, stations: directory, at: Instant(secondsSince1970: 1_000))
        #expect(joined.nowhere.map(\.unitID) == ["nowhere", "A99X01"])
    }

    /// WMATA gives a station of two lines one id with both codes: `StationCode` A01 and C01 are
    /// both Metro Center, `STN_A01_C01`. A plain `STN_<code>` is found first.
    @Test func aStationCodeFindsItsTransferComplex() {
        let platforms = [Platform(stopID: "PF_A01_C", stationID: "STN_A01_C01", stationName: "Metro Center", routes: [], stepFree: true),
                         Platform(stopID: "PF_A02_C", stationID: "STN_A02", stationName: "Farragut North", routes: [], stepFree: true),
                         Platform(stopID: "PF_C02_C", stationID: "STN_C02_A02X", stationName: "Not Farragut", routes: [], stepFree: true)]
        let directory = StationDirectory(platforms: platforms)
        let statuses = ["A01", "C01", "A02", "C02", "01"].map { code in
            FacilityUnit(unitID: "U" + code, facility: .escalator, status: .notAvailable, location: .init(stationCode: code))
        }
        let joined = FacilityJoin.join(statuses, stations: directory, at: Instant(secondsSince1970: 1_000))
        #expect(joined.byStation.mapValues { $0.map(\.unitID) } == ["STN_A01_C01": ["UA01", "UC01"], "STN_A02": ["UA02"], "STN_C02_A02X": ["UC02"]])
        #expect(joined.nowhere.map(\.unitID) == ["U01"])
    }
}
