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

    /// What the rules say at `now` about the capture, computed in-process by the core.
    static func rulesAnswer(at now: Instant) throws -> EncodedSnapshot {
        let snapshot = Snapshot.build(stations: StationDirectory(platforms: try StationsDecoder.decode(Fixtures.bytes(stopsFile))),
                                      alerts: try AlertsDecoder.decode(Fixtures.bytes(alertsFile), chicago: TestZones.chicago), now: now)
        return EncodedSnapshot(snapshot, zone: TestZones.chicago)
    }

    static func instant(_ text: String) -> Instant { ISO8601Time.instant(text, localTime: TestZones.chicago)! }

    @Test(arguments: [captured, evening])
    func aRealCaptureServedWithNowIsTheRulesAnswerAtThatInstant(_ now: String) throws {
        let daemon = try DaemonProcess(Self.arguments(now: now))
        let expected = try Self.rulesAnswer(at: Self.instant(now))
        let stations = try #require(expected.snapshot.stations?.stations)
        #expect(stations.count == 143)
        for station in stations {
            var sheet = try daemon.result("stopSheet", ["stopId": .string(station.id)])
            guard case .object(let members) = sheet else { Issue.record("not an object: \(sheet)"); continue }
            sheet = .object(JSONObject(members.members.filter { $0.key != "data" }))
            #expect(sheet == (try JSONParser.parse(try #require(expected.stopSheet(stopID: station.id)).object)), "\(station.id)")
        }
        let alerts = try daemon.result("alerts")
        expectAlerts(alerts["alerts"], match: expected.snapshot.liveAlerts, in: TestZones.chicago)

        // The clock `health` shows started at `now` and has run on from there.
        let clock = try #require(try daemon.result("health")["clock"])
        #expect(clock["pinned"] == true)
        let shown = try #require(clock["now"]?.stringValue.flatMap { ISO8601Time.instant($0, localTime: TestZones.chicago) })
        #expect(shown >= Self.instant(now) && shown < Self.instant(now).adding(seconds: 3600), "\(shown)")
    }

    /// The two instants differ in what they show, so the test above tells a pinned clock from a
    /// clock that happens to agree.
    @Test func theTwoInstantsDifferInKinds() throws {
        let morning = try Self.rulesAnswer(at: Self.instant(Self.captured)).snapshot.liveAlerts.map { "\($0.alert.id) \($0.kind)" }
        let evening = try Self.rulesAnswer(at: Self.instant(Self.evening)).snapshot.liveAlerts.map { "\($0.alert.id) \($0.kind)" }
        #expect(morning != evening)
        #expect(morning.count == 17)
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
        let start = Self.instant(pinned)
        guard case .success(.body(let bytes, _, _)) = DemoSource(.alerts, rebasedTo: start, chicago: TestZones.chicago, clock: .fixed(start)).fetch(validators: nil) else {
            throw TestFailure("demo alerts did not load")
        }
        let snapshot = Snapshot.build(stations: nil, alerts: try AlertsDecoder.decode(bytes, chicago: TestZones.chicago), now: start)
        expectAlerts(try daemon.result("alerts")["alerts"], match: snapshot.liveAlerts, in: TestZones.chicago)
        #expect(try daemon.result("stopSheet", ["stopId": "40380"])["alertGlyph"] == (try DaemonIntegrationTests.expectedDemoSheet("40380"))["alertGlyph"])
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
