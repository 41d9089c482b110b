import Foundation
import StopSheetCore
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// WMATA's lift outages placed on WMATA's real topology (Tests/Fixtures/gtfs-pathways/wmata-2026-04)
/// by the daemon's own decoders and rules, against an independent reading of the same files in
/// Python (Tests/GTFS/wmata_lifts.py, reachability by Tests/GTFS/step_free.py):
/// - station by station, one WMATA-shaped incident (made by the script) for each pair of levels
///   an elevator's end node names: each is placed on the one elevator between them, or is
///   ambiguous among the same elevators, and every platform's entry and exit with it alone out
///   is the oracle's;
/// - the hand-made body of the issue's cases (Tests/Fixtures/facilities/wmata_lifts.HANDMADE.json):
///   Tenleytown's one elevator, Metro Center by its second code, an escalator there, a garage and
///   a bike-trail elevator off the map, Dupont Circle's ambiguous pair, Takoma's elevator whose
///   nodes name no levels, and a code no station has.
@Suite struct WMATALiftsTests {
    static let feed = GTFSFeeds.tests + "/Fixtures/gtfs-pathways/wmata-2026-04"
    static let now = Instant(secondsSince1970: 1_777_550_400)  // 2026-04-30T12:00:00Z

    static let stations = Result { () throws -> StationDirectory in
        StationDirectory(try GTFSFeeds.stationsWithMaps(in: feed))
    }

    /// The oracle's body and expectations: its own body, or `body`'s.
    static func oracle(body: String? = nil) throws -> (body: [UInt8], expected: [JSON]) {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try runProcess("/usr/bin/env", ["python3", GTFSFeeds.tests + "/GTFS/wmata_lifts.py", feed, directory] + (body.map { ["--body", $0] } ?? []))
        guard run.status == 0 else { throw TestFailure("wmata_lifts.py failed: \(run.stderr.suffix(2000))") }
        let bytes = try body.map(GTFSFeeds.bytes) ?? GTFSFeeds.bytes(directory + "/incidents.json")
        let expected = try #require(try JSONParser.parse(try GTFSFeeds.bytes(directory + "/expected.json")).arrayValue)
        return (bytes, expected)
    }

    /// Each unit of `body` as the daemon places it, with the verdict of its station with it alone out.
    static func compare(_ body: [UInt8], _ expected: [JSON]) throws {
        let stations = try Self.stations.get()
        let statuses = try FacilitiesBody.decode(body, local: TestZones.rules("America/New_York")).units
        #expect(statuses.count == expected.count)
        let joined = FacilityJoin.join(statuses, stations: stations, at: now)
        let stationOf = joined.byStation.flatMap { station, units in units.map { ($0.unitID, station) } }
        #expect(Dictionary(grouping: stationOf, by: \.0).values.allSatisfy { $0.count == 1 }, "a unit at two stations")
        let units = Dictionary(stationOf, uniquingKeysWith: { first, _ in first })
        for (status, expected) in zip(statuses, expected) {
            let id = status.unitID
            #expect(expected["unitId"]?.stringValue == id)
            let stationID = expected["stationId"]?.stringValue
            #expect(units[id] == stationID, "\(id)")
            guard let stationID, let station = stations.station(for: stationID),
                  let unit = joined.byStation[stationID]?.first(where: { $0.unitID == id }) else {
                #expect(joined.nowhere.map(\.unitID).contains(id))
                continue
            }
            let verdict = StepFreeNow(station: station, topology: stations.topologies[stationID], outages: [], facilities: [unit])
            let outage = try #require(verdict.outages.first)
            let placed = expected["placed"]?.arrayValue?.compactMap(\.stringValue)
            #expect(outage.pathways == placed ?? [], "\(id)")
            let unplaced: String? = switch outage.unplaced {
            case nil: nil
            case .ambiguous?: "ambiguous"
            case .offTheMap?: "offTheMap"
            case .noRuleMatched?, .noSuchStation?: "other"
            }
            let escalator = expected["unitType"] == "ESCALATOR"
            if !escalator {
                #expect(unplaced == expected["unplaced"]?.stringValue, "\(id)")
                #expect(outage.candidates == expected["candidates"]?.arrayValue?.compactMap(\.stringValue), "\(id)")
            }
            #expect(verdict.outages.map(\.facility) == [escalator ? .escalator : .elevator], "\(id)")
            let platforms = verdict.platforms.map { JSON.object(JSONObject([("stopId", .string($0.stopID)), ("entry", $0.entry.map(JSON.bool) ?? .null),
                                                                            ("exit", $0.exit.map(JSON.bool) ?? .null)])) }
            #expect(JSON.array(platforms) == expected["platforms"], "\(id)")
            // Never "available" while an elevator out may be on the way; complete only when placed.
            #expect(verdict.complete == (escalator || placed != nil), "\(id)")
        }
    }

    @Test func everyElevatorBetweenTwoNamedLevelsIsPlacedAsTheIndependentReadingSays() throws {
        let (body, expected) = try Self.oracle()
        try Self.compare(body, expected)
        // Not vacuous: most pairs name one elevator, some several, and every station with an
        // elevator whose nodes name two levels is there.
        let placed = expected.filter { $0["placed"] != .null }.count, ambiguous = expected.filter { $0["unplaced"] == "ambiguous" }.count
        #expect(placed > 120 && ambiguous > 20, "\(placed) placed, \(ambiguous) ambiguous")
        #expect(Set(expected.compactMap { $0["stationId"]?.stringValue }).count > 90)
    }

    @Test func theIssuesCasesOnTheRealMap() throws {
        let path = Fixtures.path("facilities/wmata_lifts.HANDMADE.json")
        let (body, expected) = try Self.oracle(body: path)
        try Self.compare(body, expected)
        let byID = Dictionary(uniqueKeysWithValues: expected.compactMap { row in row["unitId"]?.stringValue.map { ($0, row) } })
        // The issue's words, so that a change of fixture or script cannot make this vacuous.
        #expect(byID["A07X01"]?["placed"] == ["A07_110126"] && byID["A07X01"]?["platforms"]?.arrayValue?.first?["entry"] == false)
        #expect(byID["C01X01"]?["stationId"] == "STN_A01_C01" && byID["A01E06"]?["stationId"] == "STN_A01_C01")
        #expect(byID["A15X03"]?["unplaced"] == "offTheMap" && byID["E10X09"]?["unplaced"] == "offTheMap")
        #expect(byID["A03X02"]?["candidates"]?.arrayValue?.count == 2 && byID["A03X02"]?["platforms"]?.arrayValue?.first?["entry"] == .null)
        #expect(byID["B07X01"]?["unplaced"] == "other" && byID["Z99X01"]?["stationId"] == .null)
        // Counted as health counts them.
        let data = FacilityData(units: try FacilitiesBody.decode(body, local: TestZones.rules("America/New_York")).units,
                                lastGoodLoad: Self.now, staleAfterSeconds: 3600)
        let snapshot = Snapshot.build(stations: try Self.stations.get(), alerts: nil, facilities: data, now: Self.now)
        #expect(snapshot.facilityCounts == [.placed: 2, .offTheMap: 2, .ambiguous: 2, .unplaced: 2])
    }

    /// A real whole-system body (WMATA's of 2019-04-05; found once the rules were written, it
    /// showed two elevators they missed, K01's "Mezzanine and  Street Level" and N06's "Silver
    /// Line Platform", which the near match of levels now places) on WMATA's 2026 GTFS: every elevator between street, mezzanine and platform is placed on
    /// its one pathway ("Mezzanine and  Street Level", "Silver Line Platform" included), the
    /// garage and bike-trail elevators are off the map, and the oracle agrees on every platform.
    @Test func aRealBodyHeldOut() throws {
        let (body, expected) = try Self.oracle(body: Fixtures.path("facilities/wmata_elevator_incidents_2019-04-05.REAL.json"))
        try Self.compare(body, expected)
        let elevators = expected.filter { $0["unitType"] == "ELEVATOR" }
        let placed = elevators.filter { $0["placed"]?.arrayValue?.count == 1 }.compactMap { $0["unitId"]?.stringValue }
        let offTheMap = elevators.filter { $0["unplaced"] == "offTheMap" }.compactMap { $0["unitId"]?.stringValue }
        #expect(placed == ["A07X01", "B08S01", "D04X01", "D10X02", "K01X01", "N06X03"])
        #expect(offTheMap == ["B04X02", "B35N02", "D09X04", "D13X04", "D13X05"])
    }
}
