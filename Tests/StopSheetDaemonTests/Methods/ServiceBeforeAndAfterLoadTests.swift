import StopSheetCore
import StopSheetProtocol
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// The methods that read a cache answer `-32005` until it has loaded, and from then on read it:
/// `alerts`, `stations` (whose step-free summary counts the alerts only once they are there),
/// `stopSheet` for a bus stop, a train stop before and after the stations load, and a `refresh`
/// of several caches answered once the last has reported.
@Suite struct ServiceBeforeAndAfterLoadTests {
    typealias Rig = FreshnessTests.Rig

    func error(_ body: () throws -> Void) -> RPCError? {
        do {
            try body()
            return nil
        } catch {
            return error as? RPCError
        }
    }

    @Test func alertsAreNotLoadedUntilTheyAre() throws {
        let rig = Rig()
        #expect(error { _ = try rig.service.alerts(nil) } == .notLoaded("alerts"))
        rig.load(.alerts, at: FreshnessTests.t0)
        let all = try JSONParser.parse(try rig.service.alerts(nil).bytes)
        #expect(all["alerts"]?.arrayValue?.isEmpty == false, "\(all)")
        #expect(error { _ = try rig.service.alerts("40380") } == .notLoaded("stations"))
    }

    /// The stations' step-free summary is the stations' own until the alerts load, then counts
    /// the alerts (69th's lift out of service on the day): each station's says what its
    /// `station` answer (read through its sheet's accessibility button) says.
    @Test func stationsCountTheAlertsOnceLoaded() throws {
        let rig = Rig()
        #expect(error { _ = try rig.service.stations() } == .notLoaded("stations"))
        rig.load(.stations, at: FreshnessTests.t0)
        let before = try #require(try JSONParser.parse(try rig.service.stations().bytes)["stations"]?.arrayValue)
        try agreeWithEachStation(before, rig)
        rig.store.install(alerts: try AlertsDecoder.decode(Fixtures.bytes("alerts_elevators.HANDMADE.json"), chicago: TestZones.chicago),
                          at: TestZones.chicago.instant(.init(year: 2026, month: 9, day: 30, hour: 8, minute: 0)))
        let after = try #require(try JSONParser.parse(try rig.service.stations().bytes)["stations"]?.arrayValue)
        try agreeWithEachStation(after, rig)
        #expect(before.count == FreshnessTests.directory.stations.count && after.count == before.count)
        #expect(zip(before, after).contains { $0.0["stepFreeNow"] != $0.1["stepFreeNow"] }, "no station's summary moved with the alerts")
    }

    func agreeWithEachStation(_ summaries: [JSON], _ rig: Rig) throws {
        for summary in summaries {
            let id = try #require(summary["stationId"]?.stringValue)
            let station = try JSONParser.parse(try rig.service.station(id).bytes)
            #expect(summary["stepFreeNow"] == station["stepFreeNow"], "\(id)")
        }
    }

    func query(_ stopID: String, bus: Bool = false) throws -> StopSheetQuery {
        var query = try StopSheetQuery(stopID: stopID)
        if bus { query.stopType = .bus }
        return query
    }

    @Test func aBusStopAndATrainStopBeforeAndAfterTheStationsLoad() throws {
        let rig = Rig()
        let bus = try JSONParser.parse(try rig.service.stopSheet(query("1234", bus: true)).bytes)
        #expect(bus["stopType"] == "bus" && bus["stopId"] == "1234" && bus["accessibilityButton"] == .null, "\(bus)")
        let early = try rig.sheet("99999")
        #expect(early["stopType"] == "train" && early["stationId"] == "99999", "\(early)")
        rig.load(.stations, at: FreshnessTests.t0)
        #expect(error { _ = try rig.service.stopSheet(query("99999")) } == .unknownStop("99999"))
        #expect(try rig.sheet("40380")["stationName"] != nil)
        #expect(try JSONParser.parse(try rig.service.stopSheet(query("1234", bus: true)).bytes) == bus)
        #expect(try JSONParser.parse(try rig.service.stopSheet(query("40380", bus: true)).bytes)["stationName"] == nil)
    }

    /// A refresh of several caches answers once each has reported, whichever order they come in.
    @Test func aRefreshOfSeveralCachesAnswersWhenTheLastReports() throws {
        let clock = ManualClock(FreshnessTests.t0)
        for order in [[CacheName.alerts, .stations], [.stations, .alerts]] {
            let outcome = RefreshOutcome(expected: [.alerts, .stations], zone: TestZones.chicago, clock: clock.clock)
            #expect(outcome.record(order[0], CacheStatus(source: "a")) == nil)
            #expect(outcome.record(order[0], CacheStatus(source: "b")) == nil, "the same cache twice is still one")
            let answer = try #require(outcome.record(order[1], CacheStatus(source: "c")))
            let json = try JSONParser.parse(answer.bytes)
            #expect(json.objectValue?.keys.contains("alerts") == true && json.objectValue?.keys.contains("stations") == true, "\(json)")
        }
        let one = RefreshOutcome(expected: [.facilities], zone: TestZones.chicago, clock: clock.clock)
        #expect(one.record(.facilities, CacheStatus(source: "f")) != nil)
    }
}
