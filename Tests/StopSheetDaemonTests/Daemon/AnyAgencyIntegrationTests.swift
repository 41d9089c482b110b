import Foundation
import Glibc
import StopSheetCore
import Testing

/// Another agency's GTFS through the real binary: the feed written for the tests in
/// `Tests/Fixtures/gtfs-any-agency/` (MBTA's route and stop ids, tram, metro, commuter rail, bus
/// and ferry) as a directory, a zip and a ZIP64 zip, with the real MBTA alerts capture made live
/// (`Tests/GTFSRealtime/any_agency_feed.py`) as the alerts source.
@Suite(.serialized) struct AnyAgencyIntegrationTests {
    static let fixture = GTFSFeeds.tests + "/Fixtures/gtfs-any-agency"
    static let tables = ["agency.txt", "routes.txt", "trips.txt", "stop_times.txt", "stops.txt"]

    /// A temp directory with the live alerts (`alerts.pb`) and the feed zipped (`feed.zip`, and
    /// `feed64.zip` with every entry in ZIP64 form).
    static func work() throws -> String {
        let directory = try makeTemporaryDirectory()
        let made = try runProcess(try GTFSFeeds.python.get(), [GTFSFeeds.tests + "/GTFSRealtime/any_agency_feed.py", "--out", directory + "/alerts.pb",
                                                               "--now", String(Int64(Date().timeIntervalSince1970))])
        guard made.status == 0 else { throw TestFailure("any_agency_feed.py failed: \(made.stderr.suffix(2000))") }
        let zipped = try runProcess("/usr/bin/env", ["python3", "-c", """
            import sys, zipfile
            source, out = sys.argv[1], sys.argv[2]
            for name, zip64 in (("feed.zip", False), ("feed64.zip", True)):
                with zipfile.ZipFile(out + "/" + name, "w", zipfile.ZIP_DEFLATED) as z:
                    for table in sys.argv[3:]:
                        with open(source + "/" + table, "rb") as f, z.open(table, "w", force_zip64=zip64) as entry:
                            entry.write(f.read())
            """, fixture, directory] + tables)
        guard zipped.status == 0 else { throw TestFailure("zipping failed: \(zipped.stderr)") }
        return directory
    }

    static func daemon(stations: String, alerts: String, _ extra: [String] = []) throws -> DaemonProcess {
        let daemon = try DaemonProcess(["--alerts-url", "file://" + alerts, "--stations-url", "file://" + stations] + extra)
        try daemon.waitForStatus(DaemonProcess.bothLoaded)
        return daemon
    }

    /// `body` with a daemon serving `stations` (the fixture directory by default) and the live alerts.
    static func serving(stations: String = fixture, _ extra: [String] = [], _ body: (DaemonProcess) throws -> Void) throws {
        let work = try work()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let daemon = try daemon(stations: stations, alerts: work + "/alerts.pb", extra)
        defer { _ = daemon.stop() }
        try body(daemon)
    }

    /// The ids of the alerts that apply to a station.
    static func alertIDs(_ daemon: DaemonProcess, _ stopID: String) throws -> [String] {
        try daemon.result("alerts", ["stopId": .string(stopID)])["alerts"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }

    @Test(arguments: ["", "/feed.zip", "/feed64.zip"])
    func linesAsTheFeedSpellsThemAndEveryRailModeAtItsStations(feed: String) throws {
        let work = try Self.work()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let daemon = try Self.daemon(stations: feed.isEmpty ? Self.fixture : work + feed, alerts: work + "/alerts.pb")
        defer { _ = daemon.stop() }

        let stations = try daemon.result("stations")
        // By name: Braintree, Framingham, Haymarket, North Station, South Station.
        #expect(stations["stations"]?.arrayValue?.compactMap { $0["stationId"]?.stringValue }
            == ["place-brntn", "place-FB-0118", "place-hymnl", "place-north", "place-sstat"], "\(stations.encodedString)")
        let north = try daemon.result("station", ["stopId": "place-north"])
        #expect(north["routes"] == ["CR-Haverhill", "Orange"])
        #expect(north["lines"] == [
            ["id": "CR-Haverhill", "shortName": nil, "longName": "Haverhill Line", "color": "80276C", "routeType": 2],
            ["id": "Orange", "shortName": nil, "longName": "Orange Line", "color": "ED8B00", "routeType": 1],
        ], "\(north.encodedString)")
        // A bus stopping at an Orange Line platform does not make it one.
        #expect(north["platforms"]?.arrayValue?.compactMap { $0["stopId"]?.stringValue } == ["70026", "North Station"])
        #expect(try daemon.result("station", ["stopId": "place-hymnl"])["lines"]?.arrayValue?.compactMap { $0["shortName"]?.stringValue } == ["B", "C"])

        // Light rail: the capture's Green Line alerts at Haymarket's platforms, and light rail's
        // route_type alone; commuter rail: the Worcester Line's at Framingham.
        let haymarket = try Self.alertIDs(daemon, "place-hymnl")
        #expect(haymarket.contains("test-light-rail-mode"), "\(haymarket)")
        #expect(haymarket.contains { !$0.hasPrefix("test-") }, "\(haymarket)")
        let framingham = try Self.alertIDs(daemon, "place-FB-0118")
        #expect(!framingham.isEmpty)
        for id in framingham {
            let alert = try #require(try daemon.result("alerts")["alerts"]?.arrayValue?.first { $0["id"]?.stringValue == id })
            #expect(alert["scopes"]?.arrayValue?.contains {
                ($0["type"] == "station" && $0["id"] == "Framingham") || ($0["type"] == "route" && $0["id"] == "CR-Worcester")
            } == true, "\(alert.encodedString)")
        }
        // Light rail's route_type reaches no metro-only or commuter-rail-only station.
        #expect(try !Self.alertIDs(daemon, "place-FB-0118").contains("test-light-rail-mode"))
        // Bus and ferry alerts reach no station; the ferry-only stations are not train stations.
        for station in ["place-FB-0118", "place-brntn", "place-hymnl", "place-north", "place-sstat"] {
            let ids = try Self.alertIDs(daemon, station)
            #expect(!ids.contains { $0.hasPrefix("test-ferry") || $0 == "test-bus-at-rail-stop" }, "\(station): \(ids)")
        }
        #expect(try daemon.call("stopSheet", ["stopId": "place-hingf"])["error"] != nil)

        // The agency in the "none" sentence, in the answer and in stopsheetctl.
        let sheet = try daemon.result("stopSheet", ["stopId": "place-hymnl"])
        #expect(sheet["accessibilityButton"]?["alert"]?["message"] == "MBTA currently reports no step-free access at Haymarket.")
        let printed = try StopSheetCtlIntegrationTests.ctl(["--socket", daemon.socketPath, "sheet", "place-hymnl"])
        #expect(printed.stdout.hasPrefix("Haymarket (Green Line B, Green Line C) place-hymnl\n"), "\(printed.stdout)")
        #expect(printed.stdout.contains("MBTA currently reports no step-free access at Haymarket."), "\(printed.stdout)")

        // Times in the feed's agency_timezone (America/New_York), in answers and in health.
        let times = try daemon.result("alerts")["alerts"]?.arrayValue?.compactMap { $0["start"]?.stringValue } ?? []
        #expect(!times.isEmpty && times.allSatisfy { $0.hasSuffix("-05:00") || $0.hasSuffix("-04:00") }, "\(times.prefix(5))")
        let loadedAt = try daemon.result("health")["stations"]?["loadedAt"]?.stringValue ?? ""
        #expect(loadedAt.hasSuffix("-05:00") || loadedAt.hasSuffix("-04:00"), "\(loadedAt)")
    }

    @Test func stopsTxtAloneLoadsForAnotherAgency() throws {
        try Self.serving(stations: Self.fixture + "/stops.txt") { daemon in
        // Every location_type 0 child of a station is a platform (ferry piers too: stops.txt
        // alone says nothing of modes); nodes, entrances and boarding areas are not.
        let north = try daemon.result("station", ["stopId": "place-north"])
        #expect(north["platforms"]?.arrayValue?.compactMap { $0["stopId"]?.stringValue } == ["70026", "70027", "North Station"])
        #expect(north["entrances"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["door-north-causeway"])
        #expect(north["lines"] == nil)
        #expect(try daemon.result("stations")["count"] == 7)
        // A node or a boarding area names its station.
        #expect(try daemon.result("stopSheet", ["stopId": "Braintree-01"])["stationId"] == "place-brntn")
        #expect(try daemon.result("stopSheet", ["stopId": "node-north-mezzanine"])["stationId"] == "place-north")
        // So does an entrance, in `stopSheet` and `station` alike.
        #expect(try daemon.result("stopSheet", ["stopId": "door-north-causeway"])["stationId"] == "place-north")
        #expect(try daemon.result("station", ["stopId": "door-north-causeway"])["stationId"] == "place-north")
        // Nothing names the agency.
        #expect(try daemon.result("stopSheet", ["stopId": "place-hymnl"])["accessibilityButton"]?["alert"]?["message"]
            == "The agency currently reports no step-free access at Haymarket.")
        }
    }

    @Test func agencyNameOverridesTheFeeds() throws {
        try Self.serving(["--agency-name", "The T"]) { daemon in
            let sheet = try daemon.result("stopSheet", ["stopId": "place-FB-0118"])
            #expect(sheet["accessibilityButton"]?["alert"]?["message"] == "The T currently reports no step-free access at Framingham.")
        }
    }

    @Test func trainRouteTypesChangeWhatIsATrain() throws {
        // Metro only: the light-rail and commuter-rail stations are gone, and so are their alerts.
        try Self.serving(["--train-route-types", "1"]) { daemon in
            #expect(try daemon.result("stations")["stations"]?.arrayValue?.compactMap { $0["stationId"]?.stringValue }
                == ["place-brntn", "place-north", "place-sstat"], "Braintree, North Station, South Station")
            let alerts = try daemon.result("alerts")["alerts"]?.arrayValue ?? []
            #expect(!alerts.contains { $0["id"] == "test-light-rail-mode" })
        }
    }

    /// A refresh's duration is the whole round, not the fetch alone: a feed directory's fetch
    /// reads `stops.txt` only, and its decode streams the other tables. Here `stop_times.txt` is
    /// a FIFO the test holds for 300 ms once the daemon has opened it, so the round cannot take
    /// less, however fast the machine: the log's duration must say so (it said 0 ms).
    @Test func aRefreshsDurationIsTheWholeRound() throws {
        guard TimeZoneIntegrationTests.logsToStderr else { return }
        let feed = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: feed) }
        for table in Self.tables where table != "stop_times.txt" {
            try FileManager.default.copyItem(atPath: Self.fixture + "/" + table, toPath: feed + "/" + table)
        }
        #expect(mkfifo(feed + "/stop_times.txt", 0o600) == 0)
        let daemon = try DaemonProcess(["--demo", "--stations-url", "file://" + feed, "--log-level", "info"]) { _ in true }
        defer { _ = daemon.stop() }
        // Opening for writing returns once the daemon's decode has opened the table to read.
        let writer = openFIFOForWriting(feed + "/stop_times.txt")
        #expect(writer >= 0, "the daemon never opened stop_times.txt")
        guard writer >= 0 else { return }
        // The slow feed under test, not a wait for the daemon: the round must last this long.
        let held = 300
        usleep(useconds_t(held * 1000))
        let rows = try String(contentsOfFile: Self.fixture + "/stop_times.txt", encoding: .utf8)
        _ = rows.withCString { write(writer, $0, strlen($0)) }
        close(writer)
        try daemon.waitForStatus(DaemonProcess.bothLoaded)
        let entry = daemon.waitForLog { $0.hasPrefix("stations refreshed: ") } ?? ""
        #expect(!entry.isEmpty, "no 'stations refreshed' entry: \(daemon.stderrText())")
        let logged = entry.range(of: #"in [0-9]+ ms"#, options: .regularExpression).map { Int(entry[$0].dropFirst(3).dropLast(3)) ?? -1 } ?? -1
        let field = entry.range(of: #"DURATION_MS=[0-9]+"#, options: .regularExpression).map { Int(entry[$0].dropFirst(12)) ?? -1 } ?? -1
        #expect(logged >= held && field == logged, "\(entry)")
    }

    /// `stations`, and `stopsheetctl stations` with it, sorted as the feed's language sorts
    /// names (`feed_lang` cs, over the agency's `agency_lang` en: Č after C, Ch after H), not by
    /// bytes, which put `Háje` after `Hradčanská` and `Černý Most` last. A feed written here, in
    /// the reference's format.
    @Test func stationsAreSortedAsTheFeedsLanguageSortsNames() throws {
        let feed = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: feed) }
        let names = ["Háje", "Hradčanská", "Černý Most", "Chodov", "Anděl"]
        let tables = [
            "feed_info.txt": "feed_publisher_name,feed_publisher_url,feed_lang\nDPP,https://dpp.example,cs\n",
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone,agency_lang\nDPP,Dopravní podnik,https://dpp.example,Europe/Prague,en\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nC,DPP,C,Linka C,1\n",
            "trips.txt": "route_id,service_id,trip_id\nC,1,t1\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                + names.indices.map { "t1,08:0\($0):00,08:0\($0):00,P\($0),\($0)\n" }.joined(),
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station\n"
                + names.enumerated().map { "S\($0),\($1),50.0\($0),14.4,1,\nP\($0),\($1),50.0\($0),14.4,0,S\($0)\n" }.joined(),
        ]
        for (name, text) in tables { try text.write(toFile: feed + "/" + name, atomically: true, encoding: .utf8) }
        let daemon = try DaemonProcess(["--demo", "--stations-url", "file://" + feed])
        defer { _ = daemon.stop() }
        let listed = try daemon.result("stations")["stations"]?.arrayValue?.compactMap { $0["stationName"]?.stringValue }
        #expect(listed == ["Anděl", "Černý Most", "Háje", "Hradčanská", "Chodov"])
        #expect(try daemon.result("health")["timeZone"] == "Europe/Prague")
        let text = try StopSheetCtlIntegrationTests.ctl(["--socket", daemon.socketPath, "stations"], columns: 100).stdout
        let shown = text.split(separator: "\n").compactMap { line in names.first { line.contains(" \($0) ") } }
        #expect(shown == ["Anděl", "Černý Most", "Háje", "Hradčanská", "Chodov"], "\(text)")
    }
}
