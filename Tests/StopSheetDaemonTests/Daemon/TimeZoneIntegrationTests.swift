import Foundation
import Glibc
import StopSheetCore
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// `--time-zone` with the real binaries: CTA's Chicago wall-clock alerts, one in winter and one
/// in summer, shown in New York's zone in answers and by `stopsheetctl`, whatever the `TZ` of
/// the daemon and of the client.
@Suite struct TimeZoneIntegrationTests {
    /// 09:00 Chicago on a January and a July day (years ahead, so the alerts are live): 10:00 in New York, at −05:00 and −04:00.
    static let alerts = ClockRuleIntegrationTests.document([
        ClockRuleIntegrationTests.ctaAlert("1", "Winter work", start: TestZones.chicago.instant(WallClock(year: 2036, month: 1, day: 15, hour: 9)),
                                end: TestZones.chicago.instant(WallClock(year: 2036, month: 1, day: 15, hour: 17)),
                                service: #"{"ServiceType":"T","ServiceId":"40380"}"#),
        ClockRuleIntegrationTests.ctaAlert("2", "Summer work", start: TestZones.chicago.instant(WallClock(year: 2036, month: 7, day: 15, hour: 9)),
                                end: nil, service: #"{"ServiceType":"T","ServiceId":"40380"}"#),
    ])

    /// Whether the daemon logs to stderr, where the test reads it (not to a journald it found).
    static var logsToStderr: Bool { access("/run/systemd/journal/socket", F_OK) != 0 }

    func daemon(_ extra: [String], tz: String, extraEnvironment: [String: String] = [:]) throws -> (DaemonProcess, String) {
        let directory = try makeTemporaryDirectory()
        let file = directory + "/alerts.json"
        try Self.alerts.write(toFile: file, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--alerts-url", "file://\(file)", "--stations-url", "file://\(Fixtures.directory)/L_stops_2021.csv"] + extra,
                                       environment: extraEnvironment.merging(["TZ": tz]) { $1 })
        return (daemon, directory)
    }

    func starts(_ daemon: DaemonProcess) throws -> [String: String] {
        let alerts = try daemon.result("alerts", ["stopId": "40380"])["alerts"]?.arrayValue ?? []
        return Dictionary(uniqueKeysWithValues: alerts.map { ($0["id"]?.stringValue ?? "?", $0["start"]?.stringValue ?? "null") })
    }

    func ctl(_ daemon: DaemonProcess, tz: String) throws -> String {
        var environment = ProcessInfo.processInfo.environment.filter { $0.key != "STOPSHEETD_SOCKET" }
        (environment["TZ"], environment["COLUMNS"]) = (tz, "100")
        let result = try runProcess(DaemonProcess.ctlBinary, ["--socket", daemon.socketPath, "alerts", "40380"], environment: environment)
        #expect(result.status == 0, "stopsheetctl: \(result.stderr)")
        return result.stdout
    }

    @Test(arguments: ["UTC", "Asia/Tokyo"])
    func newYorkOffsetsInAnswersAndNewYorkWallClockInStopsheetctl(tz: String) throws {
        let (daemon, directory) = try daemon(["--time-zone", "America/New_York"], tz: tz)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try starts(daemon) == ["1": "2036-01-15T10:00:00-05:00", "2": "2036-07-15T10:00:00-04:00"], "log: \(daemon.stderrText())")
        let end = try daemon.result("alerts")["alerts"]?.arrayValue?.first { $0["id"] == "1" }?["end"]
        #expect(end == "2036-01-15T18:00:00-05:00")
        let loadedAt = try #require(try daemon.result("health")["alerts"]?["loadedAt"]?.stringValue)
        #expect(loadedAt.hasSuffix("-05:00"), "health in New York's December: \(loadedAt)")
        let since = try #require(try daemon.result("stats")["since"]?.stringValue)
        #expect(since.hasSuffix("-05:00"), "stats: \(since)")

        let text = try ctl(daemon, tz: tz == "UTC" ? "Asia/Tokyo" : "UTC")
        #expect(text.contains("Tue 15 Jan 2036 10:00 – 18:00"), "stopsheetctl printed: \(text)")
        #expect(text.contains("Tue 15 Jul 2036 10:00 – until further notice"), "stopsheetctl printed: \(text)")
        if Self.logsToStderr {
            #expect(daemon.stderrText().contains("TIME_ZONE=America/New_York"), "the start entry names the zone: \(daemon.stderrText())")
        }
    }

    /// `watch`'s first line, and the stamp it starts with: `HH:MM:SS` (and a `Z` in UTC).
    func firstWatchLine(_ daemon: DaemonProcess, environment: [String: String]) -> (line: String, stamp: String?) {
        let watch: WatchProcess
        do { watch = try WatchProcess(socket: daemon.socketPath, ["40380"], environment: environment) } catch { return ("cannot run watch: \(error)", nil) }
        let line = watch.output.next(timeout: patience) ?? "nothing after \(patience) s"
        let stamp = line.range(of: #"^[0-9]{2}:[0-9]{2}:[0-9]{2}Z?(?= )"#, options: .regularExpression).map { String(line[$0]) }
        return (line, stamp)
    }

    /// Whether `stamp` is the wall clock of `zone` (Foundation's rules, not the daemon's) at a
    /// second between `from` and now: the window the line was printed in.
    func isWallClock(_ stamp: String?, of zone: String, since from: Date) -> Bool {
        guard let stamp, let timeZone = TimeZone(identifier: zone) else { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let seconds = Int(from.timeIntervalSince1970)...Int(Date().timeIntervalSince1970) + 1
        return seconds.contains { second in
            let parts = calendar.dateComponents([.hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(second)))
            return stamp.prefix(8) == String(format: "%02d:%02d:%02d", parts.hour ?? -1, parts.minute ?? -1, parts.second ?? -1)
        }
    }

    /// `watch` stamps its lines with the agency's wall clock, as every other command shows
    /// times: the zone `health` names, whatever the `TZ` of the machine it runs on.
    @Test(arguments: ["UTC", "Asia/Kolkata"])
    func watchStampsAreTheAgencysWallClock(tz: String) throws {
        let daemon = try DaemonProcess(["--demo", "--time-zone", "America/New_York"], environment: ["TZ": "Australia/Sydney"])
        #expect(try daemon.result("health")["timeZone"]?.stringValue == "America/New_York")
        let from = Date()
        let (line, stamp) = firstWatchLine(daemon, environment: ["TZ": tz, "COLUMNS": "100"])
        #expect(stamp?.count == 8 && isWallClock(stamp, of: "America/New_York", since: from), "TZ=\(tz), not New York's time now: \(line)")
        #expect(line.contains(" Clark/Lake (40380): "), "\(line)")
    }

    /// A zone this machine's database lacks: one line saying so, then UTC stamps marked `Z`.
    @Test func watchStampsAreUTCMarkedZWhenTheZoneIsNotKnownHere() throws {
        let database = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: database) }
        let daemon = try DaemonProcess(["--demo", "--time-zone", "America/New_York"])
        let from = Date()
        let watch = try WatchProcess(socket: daemon.socketPath, ["40380"], environment: ["TZ": "Asia/Kolkata", "TZDIR": database, "COLUMNS": "300"])
        let note = watch.output.next(timeout: patience) ?? "nothing after \(patience) s"
        #expect(note.hasSuffix(" the daemon's time zone: 'America/New_York' is not a zone of the time-zone database in \(database) (is tzdata installed?); times are UTC (Z), not the agency's"), "\(note)")
        let line = watch.output.next(timeout: patience) ?? "nothing after \(patience) s"
        let stamp = line.range(of: #"^[0-9]{2}:[0-9]{2}:[0-9]{2}Z(?= )"#, options: .regularExpression).map { String(line[$0]) }
        #expect(isWallClock(stamp, of: "UTC", since: from), "not UTC now with a Z: \(line)")
    }

    @Test func withoutTheFlagCTAsTimesStayChicagos() throws {
        let (daemon, directory) = try daemon([], tz: "Asia/Tokyo")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try starts(daemon) == ["1": "2036-01-15T09:00:00-06:00", "2": "2036-07-15T09:00:00-05:00"], "log: \(daemon.stderrText())")
        let text = try ctl(daemon, tz: "Australia/Sydney")
        #expect(text.contains("Tue 15 Jan 2036 09:00 – 17:00"), "stopsheetctl printed: \(text)")
        if Self.logsToStderr { #expect(daemon.stderrText().contains("TIME_ZONE=America/Chicago"), "\(daemon.stderrText())") }
    }

    /// Before any source names its zone, no zone is claimed: times are UTC written with `Z`,
    /// `health.timeZone` is null and the journal's start entry says the zone is not known yet
    /// (GTFS-realtime alerts name none). Once the station feed's `agency_timezone` is read,
    /// every time is New York's, and the journal says so.
    @Test func theZoneBeforeAndAfterALoad() throws {
        let work = try AnyAgencyIntegrationTests.work()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let daemon = try DaemonProcess(["--alerts-url", "file://\(work)/alerts.pb", "--stations-url", "file://\(work)/later.zip"],
                                       environment: ["TZ": "America/Chicago"]) { $0.contains("stations failing") && !$0.contains(" no train alerts") }
        let before = try daemon.result("health")
        #expect(before["timeZone"] == .null, "\(before.encodedString)")
        let attempt = try #require(before["alerts"]?["lastAttemptAt"]?.stringValue)
        #expect(attempt.hasSuffix("Z"), "\(attempt)")
        #expect(try daemon.result("stats")["since"]?.stringValue?.hasSuffix("Z") == true)
        if Self.logsToStderr {
            let log = daemon.stderrText()
            #expect(log.contains("time zone not known yet") && !log.contains("TIME_ZONE="), "\(log)")
        }

        try FileManager.default.moveItem(atPath: work + "/feed.zip", toPath: work + "/later.zip")
        let refreshed = try daemon.result("refresh", ["what": "stations"])
        #expect(refreshed["stations"]?["loaded"] == true, "\(refreshed.encodedString)")
        let after = try daemon.result("health")
        #expect(after["timeZone"] == "America/New_York")
        let loadedAt = try #require(after["stations"]?["loadedAt"]?.stringValue)
        #expect(loadedAt.hasSuffix("-05:00") || loadedAt.hasSuffix("-04:00"), "\(loadedAt)")
        let start = try daemon.result("stopSheet", ["stopId": "place-hymnl"])["alerts"]?.arrayValue?.compactMap { $0["start"]?.stringValue }.first
        #expect(start.map { $0.hasSuffix("-05:00") || $0.hasSuffix("-04:00") } ?? true, "\(start ?? "")")
        if Self.logsToStderr {
            #expect(daemon.waitForLog { $0.contains("TIME_ZONE=America/New_York") } != nil, "\(daemon.stderrText())")
        }
    }

    @Test func anUnknownZoneIsRefusedAtStartAndByCheckConfig() throws {
        for arguments in [["--demo", "--time-zone", "America/Springfield"], ["--demo", "--check-config", "--time-zone", "America/Springfield"]] {
            let result = try runProcess(DaemonProcess.binary, arguments)
            #expect(result.status != 0)
            #expect(result.stderr.contains("--time-zone: 'America/Springfield' is not a zone of the time-zone database"), "stderr: \(result.stderr)")
        }
        let environment = ProcessInfo.processInfo.environment.merging(["STOPSHEETD_TIME_ZONE": "../../etc/passwd"]) { $1 }
        let result = try runProcess(DaemonProcess.binary, ["--demo", "--check-config"], environment: environment)
        #expect(result.status == 1)
        #expect(result.stderr.contains("STOPSHEETD_TIME_ZONE: '../../etc/passwd' is not a time-zone name"), "stderr: \(result.stderr)")
        let good = try runProcess(DaemonProcess.binary, ["--demo", "--check-config", "--time-zone", "Europe/London"])
        #expect(good.status == 0, "stderr: \(good.stderr)")
    }

    @Test func aReloadShowsTheSameAnswersInTheNewZone() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.alerts.write(toFile: directory + "/alerts.json", atomically: true, encoding: .utf8)
        let config = directory + "/stopsheetd.conf"
        func configure(_ extra: String) throws {
            try """
                STOPSHEETD_ALERTS_URL=file://\(directory)/alerts.json
                STOPSHEETD_STATIONS_URL=file://\(Fixtures.directory)/L_stops_2021.csv
                \(extra)
                """.write(toFile: config, atomically: true, encoding: .utf8)
        }
        try configure("")
        let daemon = try DaemonProcess(["--config", config], environment: ["TZ": "UTC"])
        #expect(try starts(daemon)["1"] == "2036-01-15T09:00:00-06:00")
        for (zone, expected) in [("Europe/London", "2036-01-15T15:00:00+00:00"), ("Australia/Sydney", "2036-01-16T02:00:00+11:00")] {
            try configure("STOPSHEETD_TIME_ZONE=\(zone)")
            daemon.process.signal(SIGHUP)
            let reloaded = daemon.notifications.waitFor({ $0.contains("RELOADING=1") }, timeout: 60) != nil
                && daemon.notifications.waitFor({ $0.contains("READY=1") }, timeout: 60) != nil
            #expect(reloaded, "no RELOADING=1 then READY=1 within 60 s; stderr: \(daemon.stderrText())")
            #expect(try starts(daemon)["1"] == expected, "\(zone); stderr: \(daemon.stderrText())")
            if Self.logsToStderr {
                #expect(daemon.waitForLog { $0.contains("TIME_ZONE=\(zone)") } != nil, "the reload entry names the zone: \(daemon.stderrText())")
            }
            let sheet = try daemon.result("stopSheet", ["stopId": "40380"])
            #expect(sheet["alerts"]?.arrayValue?.first { $0["id"] == "1" }?["start"]?.stringValue == expected, "the encoded sheets follow the zone")
            #expect(try daemon.result("health")["timeZone"]?.stringValue == zone, "health names the zone shown")
        }
    }

    /// The zones are the database's on this machine, read at start: a zone that only a private
    /// `TZDIR` has (here Tokyo's file under a made-up name) is shown with its offsets.
    @Test func theDatabaseIsReadAtRunTimeFromTZDIR() throws {
        let database = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: database) }
        try FileManager.default.createDirectory(atPath: database + "/America", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: database + "/Test", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestZones.directory + "/America/Chicago", toPath: database + "/America/Chicago")
        try FileManager.default.copyItem(atPath: TestZones.directory + "/Asia/Tokyo", toPath: database + "/Test/Elsewhere")
        let (daemon, directory) = try daemon(["--time-zone", "Test/Elsewhere"], tz: "UTC", extraEnvironment: ["TZDIR": database])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try starts(daemon) == ["1": "2036-01-16T00:00:00+09:00", "2": "2036-07-15T23:00:00+09:00"], "log: \(daemon.stderrText())")
        let missing = try runProcess(DaemonProcess.binary, ["--demo", "--check-config", "--time-zone", "America/New_York"],
                                     environment: ProcessInfo.processInfo.environment.merging(["TZDIR": database]) { $1 })
        #expect(missing.status == 1 && missing.stderr.contains("in \(database)"), "a zone missing from TZDIR: \(missing.stderr)")
    }
}
