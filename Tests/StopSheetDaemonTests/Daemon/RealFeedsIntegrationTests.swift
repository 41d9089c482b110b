import Foundation
import StopSheetCore
import Testing
@testable import StopSheetDaemon

/// GTFS feeds as agencies publish them, through the real binary: one fixture per way
/// (`Tests/Fixtures/gtfs-quirks/`, shaped as real feeds; its README says which) and a real
/// agency's partial set (`Tests/Fixtures/gtfs-static/`), each as the stations source with the
/// embedded alerts (`--demo`).
@Suite(.serialized) struct RealFeedsIntegrationTests {
    static let quirks = GTFSFeeds.tests + "/Fixtures/gtfs-quirks/"

    static func serving(_ feed: String, _ body: (DaemonProcess) throws -> Void) throws {
        let daemon = try DaemonProcess(["--demo", "--stations-url", "file://" + feed, "--log-level", "info"])
        defer { _ = daemon.stop() }
        try body(daemon)
    }

    /// Which stations loaded, in byte order (the answer's own order is by name).
    static func stationIDs(_ daemon: DaemonProcess) throws -> [String] {
        (try daemon.result("stations")["stations"]?.arrayValue?.compactMap { $0["stationId"]?.stringValue } ?? []).sorted()
    }

    static func platformIDs(_ daemon: DaemonProcess, _ stopID: String) throws -> [String] {
        try daemon.result("station", ["stopId": .string(stopID)])["platforms"]?.arrayValue?.compactMap { $0["stopId"]?.stringValue } ?? []
    }

    static func unknown(_ daemon: DaemonProcess, _ stopID: String) throws -> Bool {
        try daemon.call("station", ["stopId": .string(stopID)])["error"]?["message"] == "Unknown stop"
    }

    @Test func twoPlatformsWithOneNameAndNoParentAreOneStation() throws {
        try Self.serving(Self.quirks + "two-platforms-one-name") { (daemon: DaemonProcess) throws in
            #expect(try Self.stationIDs(daemon) == ["70011", "70021", "70041", "70051"])
            for id in ["70011", "70012"] {
                let station = try daemon.result("station", ["stopId": .string(id)])
                #expect(station["stationId"] == "70011" && station["stationName"] == "Harbor Terminal")
            }
            #expect(try Self.platformIDs(daemon, "70012").sorted() == ["70011", "70012"])
            #expect(try Self.platformIDs(daemon, "70043").sorted() == ["70041", "70042", "70043"])
            let mill = try daemon.result("station", ["stopId": "70022"])
            #expect(mill["stepFree"] == "none" && mill["partial"] == true)
            #expect(try Self.unknown(daemon, "777"))
        }
    }

    @Test func aStreetcarBesideBusesIsItsStops() throws {
        try Self.serving(Self.quirks + "streetcar-beside-buses") { (daemon: DaemonProcess) throws in
            #expect(try Self.stationIDs(daemon) == ["5101", "5102", "5103", "5104", "5105"])
            #expect(try daemon.result("station", ["stopId": "5101"])["routes"] == ["SC"])
            #expect(try Self.unknown(daemon, "610"))
            #expect(try Self.unknown(daemon, "86"))
        }
    }

    @Test func aLoneParentlessStopIsAStationBesideParentedOnes() throws {
        try Self.serving(Self.quirks + "lone-parentless-stop") { (daemon: DaemonProcess) throws in
            #expect(try Self.stationIDs(daemon) == ["COLS", "DTWN", "OAKL"])
            let airport = try daemon.result("station", ["stopId": "OAKL"])
            #expect(airport["stationName"] == "Airport Terminal" && airport["routes"] == ["AC"] && airport["stepFree"] == "available")
            #expect(try daemon.result("station", ["stopId": "COLS_2"])["stationId"] == "COLS")
        }
    }

    @Test func everyCSVQuirkReadsAsPythonReadsIt() throws {
        try Self.serving(Self.quirks + "csv-quirks") { (daemon: DaemonProcess) throws in
            #expect(try Self.stationIDs(daemon) == ["JOE", "LOOP", "PLZ"])
            #expect(try daemon.result("station", ["stopId": "JOE1"])["stationName"] == #"Joe"s Corner"#)
            #expect(try daemon.result("station", ["stopId": "PLZ1"])["stationName"] == "Plaza Mayor")
            #expect(try daemon.result("station", ["stopId": "LOOP"])["stationName"] == "Loop Terminal")
            #expect(try daemon.result("station", ["stopId": "LOOP"])["routes"] == ["L2"])
            // agency.txt, with its space after a closing quote, is read: its name and zone.
            let sheet = try daemon.result("stopSheet", ["stopId": "JOE"])
            #expect(sheet.encodedString.contains("Quirk Metro"))
            let health = try daemon.result("health")
            #expect(health["timeZone"] == "Europe/Madrid")
            #expect(health["stations"]?["notices"] == ["count": 0, "first": []])
            #expect(health["stations"]?["lastError"] == .null)
        }
    }

    @Test(arguments: [false, true])
    func aFeedWithoutTripsLoadsItsStopsAndSaysWhyLinesAreUnknown(zipped: Bool) throws {
        var feed = Self.quirks + "without-trips"
        var work: String?
        if zipped {
            let directory = try makeTemporaryDirectory()
            work = directory
            let made = try runProcess("/usr/bin/env", ["python3", "-c", """
                import sys, zipfile
                with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as z:
                    for table in ("agency.txt", "routes.txt", "stops.txt"):
                        z.write(sys.argv[1] + "/" + table, table)
                """, feed, directory + "/feed.zip"])
            guard made.status == 0 else { throw TestFailure("zipping failed: \(made.stderr)") }
            feed = directory + "/feed.zip"
        }
        defer { work.map { try? FileManager.default.removeItem(atPath: $0) } }
        try Self.serving(feed) { (daemon: DaemonProcess) throws in
            #expect(try Self.stationIDs(daemon) == ["AIRP", "UNION"])
            let health = try daemon.result("health")
            #expect(health["stations"]?["note"] == .string(CacheStatus.linesUnknownNote(missing: ["trips.txt", "stop_times.txt"])))
            #expect(health["timeZone"] == "America/Denver")
            #expect(try daemon.result("stopSheet", ["stopId": "AIRP"]).encodedString.contains("Mountain Rail"))
        }
    }

    @Test func rowsToSkipAreNoticesInHealthAndTheJournal() throws {
        try Self.serving(Self.quirks + "notices") { (daemon: DaemonProcess) throws in
            #expect(try Self.stationIDs(daemon) == ["HRA", "MUS"])
            let notices = try daemon.result("health")["stations"]?["notices"]
            #expect(notices?["count"] == 10)
            let first = notices?["first"]?.arrayValue?.map { "\($0["file"]?.stringValue ?? ""):\($0["line"]?.intValue ?? 0)" }
            #expect(first == ["routes.txt:3", "routes.txt:4", "trips.txt:3", "stop_times.txt:4", "stops.txt:4", "stops.txt:5", "stops.txt:6",
                              "stops.txt:7", "stops.txt:8", "stops.txt:9"])
            #expect(notices?["first"]?.arrayValue?.first?["problem"] == "route_type 'subway' is not a number: row skipped")
            _ = daemon.stop()
            let journal = daemon.stderrText().split(separator: "\n").filter { $0.contains("STOPSHEET_EVENT=feed_notices") }
            #expect(journal.count == 1)
            #expect(journal.first?.hasPrefix("stations: 10 rows or values skipped; the first: routes.txt line 3: route_type 'subway' is not a number") == true)
        }
    }

    @Test func aFeedWithNothingUsableNamesTheFileLineAndColumn() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data("stop_code,stop_name,parent_station\n1,A,\n".utf8).write(to: URL(fileURLWithPath: directory + "/stops.txt"))
        // STATUS= names the failed load: `…; stations failing (1 in a row, no data yet): …`.
        let daemon = try DaemonProcess(["--demo", "--stations-url", "file://" + directory]) { $0.contains("stations failing") }
        defer { _ = daemon.stop() }
        let lastError = try daemon.result("health")["stations"]?["lastError"]?.stringValue
        #expect(lastError?.contains("stops.txt line 1 column stop_id: no such column in the header") == true, "\(lastError ?? "nil")")
    }

    /// Euskotren's real set without trips: four agencies, NeTEx-style ids.
    @Test func aRealPartialFeedLoadsItsStations() throws {
        try Self.serving(GTFSFeeds.tests + "/Fixtures/gtfs-static/euskotren-2025-11-27") { (daemon: DaemonProcess) throws in
            let health = try daemon.result("health")
            #expect(health["stations"]?["count"] == 128)
            #expect(health["stations"]?["notices"]?["count"] == 0)
            #expect(health["timeZone"] == "Europe/Madrid")
        }
    }
}
