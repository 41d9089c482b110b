import StopSheetCore
import StopSheetProtocol
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// Issue 12 in the daemon, with an injected clock: the sheet's `data`, health's four states,
/// STATUS=, the stale-after settings, and advisories through the encoded sheets.
@Suite struct FreshnessTests {
    static let t0 = Instant(secondsSince1970: 1_790_000_000)
    static let directory = StationDirectory(platforms: try! StationsDecoder.decode(Fixtures.bytes("L_stops_2021.csv")))
    static let alerts = try! AlertsDecoder.decode(Fixtures.bytes("alerts_2015-02-14.DERIVED.json"), chicago: TestZones.chicago)

    /// A store with the default stale-after limits, a service reading `clock`, and the caches
    /// marked as the refresher marks them.
    struct Rig {
        let clock = ManualClock(FreshnessTests.t0)
        let store: Store

        init() {
            store = Store(alertsSource: "test:alerts", stationsSource: "test:stations", clock: clock.clock, zones: .cta)
            store.applyStaleAfter(Config())
        }

        var service: StopSheetService { StopSheetService(store: store, refreshers: [], connections: { 0 }, clock: store.clock) }

        func load(_ cache: CacheName, at instant: Instant) {
            switch cache {
            case .alerts: store.install(alerts: FreshnessTests.alerts, at: instant)
            case .stations: store.install(stations: FreshnessTests.directory, at: instant)
            case .facilities: store.install(facilities: FacilitiesLoad(feed: .init(format: .wmata, units: [])), at: instant)
            }
            store.updateStatus(cache) { $0.loaded = true; $0.loadedAt = instant; $0.consecutiveFailures = 0 }
        }

        func fail(_ cache: CacheName) { store.updateStatus(cache) { $0.consecutiveFailures += 1; $0.lastError = "HTTP 503" } }

        func set(_ seconds: Int64) { clock.set(FreshnessTests.t0.adding(seconds: seconds)) }

        func sheet(_ stopID: String = "40380") throws -> JSON {
            try JSONParser.parse(try service.stopSheet(StopSheetQuery(stopID: stopID)).bytes)
        }
    }

    static func freshness(_ loaded: Bool, _ age: Int?, _ stale: Bool, producedAt: String? = nil) -> JSON {
        ["loaded": .bool(loaded), "ageSeconds": age.map(JSON.int) ?? .null, "stale": .bool(stale), "producedAt": producedAt.map(JSON.string) ?? .null,
         "configured": true]
    }

    @Test func everyTrainSheetSaysHowFreshItsDataIs() throws {
        let rig = Rig()
        // Nothing loaded: the sheet before stations load says so, and is not "all clear".
        var sheet = try rig.sheet()
        // No lift status configured: none is coming.
        let noFacilities: JSON = ["loaded": false, "ageSeconds": nil, "stale": false, "producedAt": nil, "configured": false]
        #expect(sheet["data"] == ["alerts": Self.freshness(false, nil, false), "stations": Self.freshness(false, nil, false), "facilities": noFacilities])
        #expect(sheet["alertGlyph"] == .null)
        #expect(sheet["accessibilityButton"]?["advisories"] == [])
        rig.load(.stations, at: Self.t0)
        rig.set(30)
        sheet = try rig.sheet()
        #expect(sheet["data"] == ["alerts": Self.freshness(false, nil, false), "stations": Self.freshness(true, 30, false), "facilities": noFacilities])
        rig.load(.alerts, at: Self.t0.adding(seconds: 20))
        rig.set(620)
        sheet = try rig.sheet()
        #expect(sheet["data"]?["alerts"] == Self.freshness(true, 600, false))
        rig.set(621)
        #expect(try rig.sheet()["data"]?["alerts"] == Self.freshness(true, 601, true))
        // Stations: 3 × the default 3600 s interval.
        rig.set(10_800)
        #expect(try rig.sheet()["data"]?["stations"] == Self.freshness(true, 10_800, false))
        rig.set(10_801)
        #expect(try rig.sheet()["data"]?["stations"] == Self.freshness(true, 10_801, true))
        // `data` stands where `Answer.Sheet` puts it, beside the snapshot's sheet unchanged.
        let answer = try JSONParser.parse(try rig.service.stopSheet(StopSheetQuery(stopID: "40380")).bytes)
        let plain = try JSONParser.parse(rig.store.current.encoded.stopSheet(stopID: "40380")!.sheet)
        #expect(answer.objectValue?.keys == Answer.Sheet.CodingKeys.allCases.map(\.rawValue).filter { answer.objectValue?.keys.contains($0) ?? false })
        #expect(answer.objectValue?.members.filter { $0.key != "data" }.map(\.key) == plain.objectValue?.members.filter { $0.key != "data" }.map(\.key))
        #expect(answer["accessibilityButton"] == plain["accessibilityButton"] && answer["alerts"] == plain["alerts"])
        #expect(answer["data"]?["alerts"]?["ageSeconds"] == 10_781)
        // Bus sheets stay as the spec has them: nothing at all.
        #expect(try rig.service.stopSheet(StopSheetQuery(ParamsDecoder<Methods.StopSheet.Params>().decode(["stopId": "1106", "stopType": "bus"]))).bytes == Array(#"{"stopType":"bus","stopId":"1106","alertGlyph":null,"accessibilityButton":null}"#.utf8))
    }

    /// The feed's own time of making (`TimeStamp`, GTFS-realtime `header.timestamp`) is the
    /// sheet's `data.alerts.producedAt`, in the zone shown, and makes a load a second old stale
    /// when it is older than the limit; `health` says why.
    @Test func aFeedMadeLongAgoIsStaleHoweverFreshItsLoad() throws {
        let rig = Rig()
        rig.load(.stations, at: Self.t0)
        // Made 2 hours before it was fetched (the real 2015 capture's rules, stamped then).
        let made = Self.t0.adding(seconds: -7200)
        rig.store.install(alerts: DecodedAlerts(alerts: Self.alerts, producedAt: made, timeZone: CTATime.zoneIdentifier), at: Self.t0)
        rig.store.updateStatus(.alerts) { $0.loaded = true; $0.loadedAt = Self.t0 }
        rig.set(1)
        let shown = TestZones.chicago.iso8601(made)
        #expect(try rig.sheet()["data"]?["alerts"] == Self.freshness(true, 1, true, producedAt: shown))
        let health = try JSONParser.parse(rig.service.health())
        #expect(health["alerts"]?["stale"] == true && health["alerts"]?["producedAt"] == .string(shown))
        #expect(health["alerts"]?["note"] == .string("the feed says it was made at \(shown), over 600 s ago"))
        #expect(health["stations"]?["producedAt"] == .null && health["stations"]?["note"] == .null)
        // A feed made a moment ago: fresh, and the same member says when.
        rig.store.install(alerts: DecodedAlerts(alerts: Self.alerts, producedAt: Self.t0, timeZone: CTATime.zoneIdentifier), at: Self.t0)
        #expect(try rig.sheet()["data"]?["alerts"] == Self.freshness(true, 1, false, producedAt: TestZones.chicago.iso8601(Self.t0)))
        #expect(try JSONParser.parse(rig.service.health())["alerts"]?["note"] == .null)
    }

    /// The spliced sheets follow the snapshot, not only the data: a new alert set installed in
    /// the same second with the same statuses is answered at once.
    @Test func aNewSnapshotIsAnsweredWithinTheSameSecond() throws {
        let rig = Rig()
        rig.load(.stations, at: Self.t0)
        rig.load(.alerts, at: Self.t0)
        let before = try rig.sheet("40630")
        #expect(before["alertGlyph"]?["count"]?.intValue ?? 0 > 0)
        rig.store.install(alerts: [], at: Self.t0)
        let after = try rig.sheet("40630")
        #expect(after["alertGlyph"] == .null)
        #expect(after["accessibilityButton"]?["advisories"] == [])
        #expect(after["data"] == before["data"])
    }

    @Test func theShortcutSplicesTheSameData() throws {
        let rig = Rig()
        rig.load(.stations, at: Self.t0)
        rig.load(.alerts, at: Self.t0)
        rig.set(7)
        var dispatcher = Dispatcher()
        rig.service.register(in: &dispatcher)
        let exact = try #require(dispatcher.exact)
        let context = RPCContext(peer: PeerCredentials(pid: 1, uid: 0, gid: 0))
        for stopID in ["40380", "30074", "40630"] {
            let general = dispatcher.reply(to: RPCRequest(id: .number("1"), method: "stopSheet", params: ["stopId": .string(stopID)]), context: context)
            guard case .result(let fast) = exact.handler(stopID, context), case .result(let slow) = general else {
                Issue.record("no result for \(stopID)")
                continue
            }
            #expect(fast == slow)
            #expect(try JSONParser.parse(fast)["data"]?["alerts"]?["ageSeconds"] == 7)
        }
    }

    @Test func healthTellsFourStatesApart() {
        func state(_ alerts: (loaded: Bool, failures: Int), _ stations: (loaded: Bool, failures: Int)) -> HealthState {
            func status(_ value: (loaded: Bool, failures: Int)) -> CacheStatus {
                var status = CacheStatus(source: "test")
                status.loaded = value.loaded
                status.loadedAt = value.loaded ? Self.t0 : nil
                status.consecutiveFailures = value.failures
                return status
            }
            return HealthState([status(alerts), status(stations)])
        }
        #expect(state((false, 0), (false, 0)) == .starting)
        #expect(state((true, 0), (false, 0)) == .starting)
        #expect(state((false, 1), (false, 0)) == .unavailable)
        #expect(state((false, 3), (true, 0)) == .unavailable)
        #expect(state((true, 0), (false, 2)) == .unavailable)
        #expect(state((false, 0), (true, 1)) == .starting, "a first load under way, the other serving its last good data")
        #expect(state((true, 1), (true, 0)) == .degraded)
        #expect(state((true, 0), (true, 5)) == .degraded)
        #expect(state((true, 0), (true, 0)) == .ready)
    }

    @Test func healthReportsTheStateAndStaleness() throws {
        let rig = Rig()
        #expect((try JSONParser.parse(rig.service.health()))["status"] == "starting")
        rig.fail(.alerts)
        #expect((try JSONParser.parse(rig.service.health()))["status"] == "unavailable")
        rig.load(.stations, at: Self.t0)
        rig.load(.alerts, at: Self.t0)
        #expect((try JSONParser.parse(rig.service.health()))["status"] == "ready")
        rig.fail(.alerts)
        rig.set(601)
        let health = (try JSONParser.parse(rig.service.health()))
        #expect(health["status"] == "degraded")
        #expect(health["alerts"]?["ageSeconds"] == 601)
        #expect(health["alerts"]?["stale"] == true)
        #expect(health["stations"]?["stale"] == false, "stations' limit is its own")
    }

    @Test func statusLineSaysNoDataYetOnlyWhenThereIsNone() {
        let rig = Rig()
        rig.fail(.alerts)
        let never = rig.store.serviceStatus(now: Self.t0)
        #expect(never.contains("alerts failing (1 in a row, no data yet): HTTP 503"), "\(never)")
        rig.load(.alerts, at: Self.t0)
        rig.fail(.alerts)
        let kept = rig.store.serviceStatus(now: Self.t0)
        #expect(kept.contains("alerts failing (1 in a row): HTTP 503") && !kept.contains("no data yet"), "\(kept)")
        #expect(!kept.contains("(stale)"))
        #expect(rig.store.serviceStatus(now: Self.t0.adding(seconds: 601)).contains("; alerts 601s old (stale); alerts failing"))
    }

    @Test func staleAfterSettings() throws {
        func config(_ arguments: [String], _ environment: [String: String] = [:]) throws -> Config {
            guard case .run(let config) = try Config.parse(arguments: ["--demo"] + arguments, environment: environment) else { throw TestFailure("not a run") }
            return config
        }
        let defaults = try config([])
        #expect(defaults.staleAfterSeconds(.alerts) == 600)
        #expect(defaults.staleAfterSeconds(.stations) == 10_800)
        #expect(try config(["--stations-interval", "60"]).staleAfterSeconds(.stations) == 180)
        let set = try config(["--alerts-stale-after", "5", "--stations-stale-after=7"])
        #expect(set.staleAfterSeconds(.alerts) == 5 && set.staleAfterSeconds(.stations) == 7)
        #expect(try config([], ["STOPSHEETD_ALERTS_STALE_AFTER": "42"]).staleAfterSeconds(.alerts) == 42)
        #expect(throws: Config.Failure.self) { try config(["--alerts-stale-after", "0"]) }
    }

    /// A box that boots offline with an hourly station interval retries within minutes.
    @Test func failureBackoffIsCappedAtAFewMinutes() {
        #expect((1...6).map { Refresher.backoffSeconds(afterFailures: $0, interval: 3600) } == [1, 2, 4, 8, 16, 32])
        #expect(Refresher.backoffSeconds(afterFailures: 9, interval: 3600) == 256)
        #expect(Refresher.backoffSeconds(afterFailures: 10, interval: 3600) == 300)
        #expect(Refresher.backoffSeconds(afterFailures: 1_000, interval: 3600) == 300)
        #expect(Refresher.backoffSeconds(afterFailures: 10, interval: 60) == 60, "never slower than the interval")
        #expect(Refresher.backoffSeconds(afterFailures: 3, interval: 1) == 1)
    }

    /// Advisories ride in the encoded sheets byte for byte as in the plain encoding, restored ones too.
    @Test func handMadeAdvisoriesEncodeAsThePlainPath() throws {
        let alerts = try AlertsDecoder.decode(Fixtures.bytes("alerts_elevators.HANDMADE.json"), chicago: TestZones.chicago)
        let now = TestZones.chicago.instant(.init(year: 2026, month: 9, day: 30, hour: 8, minute: 0))
        let snapshot = Snapshot.build(stations: Self.directory, alerts: alerts, now: now)
        let encoded = EncodedSnapshot(snapshot, zone: TestZones.chicago)
        for station in Self.directory.stations {
            expectSheet(encoded.stopSheet(stopID: station.id)?.sheet, matches: snapshot.stopSheet(for: station), in: TestZones.chicago, "\(station.id)")
        }
        let clarkLake = try JSONParser.parse(try #require(encoded.stopSheet(stopID: "40380")).sheet)
        #expect(clarkLake["accessibilityButton"]?["advisories"] == [[
            "alertId": "117611", "kind": "active", "headline": "Elevator at Clark/Lake Back in Service",
            "description": "The elevator to the Blue Line platform at Clark/Lake is back in service.",
            "start": "2026-09-30T07:30:00-05:00", "end": "2026-10-01T07:30:00-05:00", "restored": true,
        ]])
    }

    @Test func stationDetailListsTheAdvisories() throws {
        let rig = Rig()
        rig.load(.stations, at: Self.t0)
        let before = try JSONParser.parse(try rig.service.station("40630").bytes)
        #expect(before["advisories"] == [])
        rig.store.install(alerts: Self.alerts, at: TestZones.chicago.instant(.init(year: 2015, month: 2, day: 14, hour: 14, minute: 35)))
        let after = try JSONParser.parse(try rig.service.station("40630").bytes)
        #expect(after["advisories"]?.arrayValue?.map { $0["alertId"] } == ["23656"])
        #expect(after["stepFree"] == "available")
    }
}
