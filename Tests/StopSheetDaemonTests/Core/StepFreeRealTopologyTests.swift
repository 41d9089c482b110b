import Foundation
import StopSheetCore
import StopSheetProtocol
import Testing

/// Step-free now on two real agencies' station topology (Tests/Fixtures/gtfs-pathways: Prague's
/// metro, Euskotren) with outage alerts written by the reference encoder naming their real
/// elevators (Tests/GTFSRealtime/step_free_feeds.py). Every station with pathways, every
/// platform's entry and exit and every outage is compared with an independent reading of the
/// same files in Python (Tests/GTFS/step_free.py), at three moments: now, after a planned
/// outage has started, and now with lift-status units on every real elevator (unknown, out,
/// available and partly available in turn) beside the alerts.
@Suite struct StepFreeRealTopologyTests {
    static let feeds = ["prague-pid-2020-07-02", "euskotren-2025-11-27"]
    static let now: Int64 = 1_764_669_600

    /// The oracle's files, made once.
    static let made = Result { () throws -> String in
        let directory = try makeTemporaryDirectory()
        let run = try runProcess(try GTFSFeeds.python.get(), [GTFSFeeds.tests + "/GTFSRealtime/step_free_feeds.py", "--out", directory, "--now", String(now)])
        guard run.status == 0 else { throw TestFailure("step_free_feeds.py failed: \(run.stderr.suffix(2000))") }
        return directory
    }

    static func fixture(_ feed: String, _ table: String) throws -> [UInt8] {
        try GTFSFeeds.bytes(GTFSFeeds.tests + "/Fixtures/gtfs-pathways/\(feed)/\(table)")
    }

    /// The verdict as the oracle writes it.
    static func json(_ now: StepFreeNow) -> JSON {
        .object(JSONObject([
            ("stepFree", .string(now.stepFree.rawValue)), ("basis", .string(now.basis.rawValue)), ("complete", .bool(now.complete)),
            ("platforms", .array(now.platforms.map { platform in
                .object(JSONObject([("stopId", .string(platform.stopID)), ("entry", platform.entry.map(JSON.bool) ?? .null),
                                    ("exit", platform.exit.map(JSON.bool) ?? .null)]))
            })),
            ("outages", .array(now.outages.map { outage in
                .object(JSONObject([("alertId", .string(outage.alertID ?? Answer.FacilityOutage.noAlert)), ("facility", .string(outage.facility.rawValue)),
                                    ("facilityId", outage.facilityID.map(JSON.string) ?? .null), ("pathways", .array(outage.pathways.map(JSON.string))),
                                    ("source", .string(outage.source.rawValue)), ("status", .string(outage.status.rawValue))]))
            })),
        ]))
    }

    @Test(arguments: feeds)
    func everyPlatformMatchesTheIndependentReading(feed: String) throws {
        let directory = try Self.made.get()
        let expected = try JSONParser.parse(try GTFSFeeds.bytes("\(directory)/\(feed).expected.json"))
        let stops = try Self.fixture(feed, "stops.txt")
        let topology = try GTFSPathwaysDecoder.decode(stops: stops, pathways: try Self.fixture(feed, "pathways.txt"),
                                                      levels: try Self.fixture(feed, "levels.txt"))
        let stations = StationDirectory(try GTFSStopsDecoder.decode(stops))
        let alerts = try GTFSRealtimeAlertsDecoder.decode(try GTFSFeeds.bytes("\(directory)/\(feed).pb"))
        // Lift-status units on the real elevators (moment "units"), by station.
        var units: [String: [FacilityUnit]] = [:]
        for unit in try #require(try JSONParser.parse(try GTFSFeeds.bytes("\(directory)/\(feed).units.json")).arrayValue) {
            let status = try #require(unit["status"]?.stringValue.flatMap(FacilityUnit.Status.init(rawValue:)))
            let id = try #require(unit["unitId"]?.stringValue), station = try #require(unit["stationId"]?.stringValue)
            units[station, default: []].append(FacilityUnit(unitID: id, facility: .other, status: status))
        }
        #expect(units.values.joined().count > 8, "\(feed): too few elevators to try each status")
        let moments = try #require(expected["moments"]?.objectValue)
        for (label, moment) in moments.members {
            let at = Instant(secondsSince1970: Int64(try #require(moment.intValue)))
            let snapshot = Snapshot.build(stations: stations, alerts: alerts, now: at)
            let verdicts = try #require(expected["verdicts"]?[label]?.objectValue)
            var withPathways: [String] = []
            for station in stations.stations {
                let now = StepFreeNow(station: station, topology: topology.stations[station.id],
                                      applying: snapshot.alerts(applyingTo: station).map(\.alert), now: at,
                                      facilities: label == "units" ? units[station.id] ?? [] : [])
                guard now.basis == .pathways else {
                    #expect(verdicts[station.id] == nil, "\(station.id) has pathways for the oracle")
                    // Without a map, each platform's reported value, a `true` unsaid while an
                    // elevator outage could be on its way: never a value the data does not give.
                    #expect(zip(now.platforms, station.platforms).allSatisfy { access, platform in
                        [access.entry, access.exit].allSatisfy { $0 == platform.stepFree || ($0 == nil && platform.stepFree == true) }
                    })
                    continue
                }
                withPathways.append(station.id)
                // Names are the daemon's (the oracle does not read them); the rest must be equal.
                #expect(now.platforms.allSatisfy { !$0.name.isEmpty })
                #expect(Self.json(now) == verdicts[station.id], "\(feed) \(label) \(station.id)")
            }
            #expect(withPathways.sorted() == verdicts.keys.sorted(), "\(feed) \(label)")
        }
    }

    /// The truths, on the real stations: the oracle agrees (above); these say which
    /// stations show them, so a change of fixture or script cannot make the test vacuous.
    @Test func theRealStationsShowEachKindOfOutage() throws {
        let directory = try Self.made.get()
        let prague = try JSONParser.parse(try GTFSFeeds.bytes("\(directory)/prague-pid-2020-07-02.expected.json"))
        let now = try #require(prague["verdicts"]?["now"]), later = try #require(prague["verdicts"]?["later"])
        // Bořislavka: two elevators out, every platform still step-free.
        #expect(now["U157S1"]?["stepFree"] == .string("available"))
        #expect(now["U157S1"]?["outages"]?.arrayValue?.count == 2)
        // Nemocnice Motol: one out, one platform loses step-free access.
        #expect(now["U306S1"]?["stepFree"] == .string("partial"))
        // Anděl: planned, so nothing yet; none step-free once it starts.
        #expect(now["U1040S1"]?["stepFree"] == .string("available"))
        #expect(later["U1040S1"]?["stepFree"] == .string("none"))
        // Můstek: "Elevator 7" names no pathway.
        #expect(now["U1072S1"]?["complete"] == .bool(false))
        // Muzeum: an escalator is no elevator.
        #expect(now["U400S1"]?["outages"]?.arrayValue?.first?["facility"] == .string("escalator"))
        let euskotren = try JSONParser.parse(try GTFSFeeds.bytes("\(directory)/euskotren-2025-11-27.expected.json"))
        #expect(euskotren["verdicts"]?["now"]?["ES:Euskotren:StopPlace:2606:"]?["stepFree"] == .string("partial"))
    }
}
