import Foundation
import StopSheetCore
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// `--now`: the daemon's clock starts at a given instant and runs on at the real rate, so a real
/// capture answers as it did on its day, and two daemons pinned alike answer alike.
@Suite struct PinnedClockIntegrationTests {
    static let alertsFile = "alerts_2015-02-14.DERIVED.json"
    static let stopsFile = "L_stops_2021.csv"
    /// The capture's own moment, and one a few hours later, after some of its alerts began or ended.
    static let captured = "2015-02-14T14:35:00-06:00"
    static let evening = "2015-02-14T23:30:00-06:00"

    static func arguments(now: String) -> [String] {
        ["--alerts-url", "file://\(Fixtures.path(alertsFile))", "--stations-url", "file://\(Fixtures.path(stopsFile))", "--now", now]
    }

    static func instant(_ text: String) -> Instant { ISO8601Time.instant(text, localTime: TestZones.chicago)! }

    /// The capture's train alerts (a `Train Route` or `Train Station` among their services) and
    /// their kinds, read off the fixture's `EventStart` and `EventEnd` (Chicago time) by an
    /// independent reading (Python over the JSON): planned when the start is still to come, gone
    /// once the end has passed. At 23:30, 27042 (Howard-bound trains bypass Addison, 11:00 to
    /// 15:00) has ended; the others stand.
    static let kindsAtCapture: [String: String] = [
        "23322": "active", "23656": "active", "26950": "active", "27031": "active", "27032": "planned", "27033": "planned",
        "27034": "planned", "27035": "planned", "27036": "planned", "27037": "planned", "27038": "planned", "27039": "planned",
        "27040": "planned", "27041": "planned", "27042": "active", "27043": "planned", "27068": "active",
    ]
    static let kindsAtEvening = kindsAtCapture.filter { $0.key != "27042" }

    static func kinds(_ alerts: JSON?) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try #require(alerts?.arrayValue).map { alert in
            (try #require(alert["id"]?.stringValue), try #require(alert["kind"]?.stringValue))
        })
    }

    @Test(arguments: [(captured, kindsAtCapture), (evening, kindsAtEvening)])
    func aRealCaptureServedWithNowAnswersAsOnItsDay(_ now: String, _ kinds: [String: String]) throws {
        let daemon = try DaemonProcess(Self.arguments(now: now))
        #expect(try Self.kinds(try daemon.result("alerts")["alerts"]) == kinds)
        // A Red Line station's sheet has the route's bypass while it lasts; a Blue Line one never.
        let red = try Self.kinds(try daemon.result("stopSheet", ["stopId": "41420"])["alerts"])
        #expect(red["27042"] == kinds["27042"])
        #expect(red["27031"] == "active")
        #expect(try Self.kinds(try daemon.result("stopSheet", ["stopId": "41240"])["alerts"])["27042"] == nil)

        // The clock `health` shows started at `now` and has run on from there.
        let clock = try #require(try daemon.result("health")["clock"])
        #expect(clock["pinned"] == true)
        let shown = try #require(clock["now"]?.stringValue.flatMap { ISO8601Time.instant($0, localTime: TestZones.chicago) })
        #expect(shown >= Self.instant(now) && shown < Self.instant(now).adding(seconds: 3600), "\(shown)")
    }

    @Test func twoDaemonsPinnedAlikeAnswerByteForByteTheSameAgesAside() throws {
        let first = try DaemonProcess(Self.arguments(now: Self.captured))
        let second = try DaemonProcess(Self.arguments(now: Self.captured))
        let ages = try NSRegularExpression(pattern: #""ageSeconds":\d+"#)
        func raw(_ daemon: DaemonProcess, _ request: String) throws -> String {
            let client = try daemon.client()
            #expect(client.send(line: request))
            let line = try #require(client.readLine())
            return ages.stringByReplacingMatches(in: line, range: NSRange(line.startIndex..., in: line), withTemplate: #""ageSeconds":_"#)
        }
        var requests = [#"{"jsonrpc":"2.0","id":1,"method":"alerts"}"#, #"{"jsonrpc":"2.0","id":1,"method":"stations"}"#]
        for station in try #require(try first.result("stations")["stations"]?.arrayValue) {
            let id = try #require(station["stationId"]?.stringValue)
            requests.append(#"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"\#(id)"}}"#)
            requests.append(#"{"jsonrpc":"2.0","id":1,"method":"alerts","params":{"stopId":"\#(id)"}}"#)
            requests.append(#"{"jsonrpc":"2.0","id":1,"method":"station","params":{"stopId":"\#(id)"}}"#)
        }
        for request in requests {
            let answer = try raw(first, request)
            #expect(answer.contains(#""result""#), "\(answer)")
            #expect(answer == (try raw(second, request)), "\(request)")
        }
    }

    @Test func theDemoFollowsThePinnedClock() throws {
        // The demo rebases its capture to the daemon's start: pinned, to the pinned start.
        let pinned = "2030-06-01T12:00:00Z"
        let daemon = try DaemonProcess(["--demo", "--now", pinned])
        // Rebased, the capture's times keep their distance to its moment: the kinds are those at
        // the capture (the demo is the same file as the fixture).
        #expect(try Self.kinds(try daemon.result("alerts")["alerts"]) == Self.kindsAtCapture)
    }

    @Test func theStartEntryWarnsThatTheClockIsPinned() throws {
        let daemon = try DaemonProcess(Self.arguments(now: Self.captured) + ["--log-level", "warning"])
        let log = daemon.stderrText()
        // No data has named a zone yet at the start, so the time is UTC, never Chicago's by guess.
        #expect(log.contains("the clock is pinned by --now: it started at 2015-02-14T20:35:00Z, not the real time"), "\(log)")
        // Unpinned, the start entry is a notice, below this level.
        let unpinned = try DaemonProcess(["--demo", "--log-level", "warning"])
        #expect(!unpinned.stderrText().contains("starting stopsheetd"))
        #expect(try unpinned.result("health")["clock"]?["pinned"] == false)
    }

    @Test(arguments: ["2015-02-14T14:35:00", "yesterday", "2015-02-30T00:00:00Z", ""])
    func checkConfigRefusesATimeWithoutAnOffset(_ value: String) throws {
        let result = try runProcess(DaemonProcess.binary, ["--check-config", "--demo", "--now", value])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--now: '\(value)' is not an ISO 8601 time with an offset or Z, such as 2015-02-14T14:35:00-06:00"), "\(result.stderr)")
        let good = try runProcess(DaemonProcess.binary, ["--check-config", "--demo", "--now", "2015-02-14T14:35:00Z"])
        #expect(good.status == 0, "\(good.stderr)")
    }
}
