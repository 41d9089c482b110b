import Foundation
import StopSheetCore
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// Issue 3's lifetime rules through the real daemon, its real libcurl client and a local upstream
/// process that misbehaves on demand. Each test uses its own `/dyn/<key>` and its own daemon.
@Suite(.serialized) struct HTTPRefreshIntegrationTests {
    let upstream: Upstream
    let stopsFile = "file://\(Fixtures.directory)/L_stops_2021.csv"
    static let goodAlerts = try! String(contentsOfFile: Fixtures.path("upstream/alerts.json"), encoding: .utf8)
    static let allStops = try! String(contentsOfFile: Fixtures.path("L_stops_2021.csv"), encoding: .utf8)

    init() throws { upstream = try Upstream.shared() }

    func key(_ name: String = #function) -> String { "\(name.prefix { $0 != "(" })-\(getpid())-\(UInt32.random(in: 0...UInt32.max))" }

    func refresh(_ daemon: DaemonProcess, _ what: String) throws -> JSON {
        try #require(try daemon.result("refresh", ["what": .string(what)])[what])
    }

    func glyphCount(_ daemon: DaemonProcess, _ stop: String) throws -> Int? {
        try daemon.result("stopSheet", ["stopId": .string(stop)])["alertGlyph"]?["count"]?.intValue
    }

    @Test func aFailedAlertRefreshKeepsTheLastGoodSet() throws {
        let key = key()
        try upstream.set(key: key, body: Self.goodAlerts)
        let daemon = try DaemonProcess(["--alerts-url", upstream.url("/dyn/\(key)"), "--stations-url", stopsFile, "--http-timeout", "1"])
        let good = try daemon.result("health")["alerts"]!
        let count = try #require(good["count"]?.intValue)
        #expect(count > 0)
        let elevator = try glyphCount(daemon, "40990")
        #expect(elevator != nil)

        let faults: [(status: Int, body: String, delayMs: Int, error: String)] = [
            (500, "<html>oops</html>", 0, "HTTP 500"),
            (503, "", 0, "HTTP 503"),
            (404, "", 0, "HTTP 404"),
            (200, "<!DOCTYPE html><html><body>Service Unavailable</body></html>", 0, "not JSON"),
            (200, "", 0, "empty"),
            (200, #"{"alerts":[{"id":"1","status":"active","headline":"cut"#, 0, "did not decode"),
            (200, #"{"alerts":"none"}"#, 0, "did not decode"),
            (200, #"{"CTAAlerts":{"TimeStamp":"2026-11-29T10:00:00","ErrorCode":"900","ErrorMessage":"Invalid API key"}}"#, 0, "900"),
            (200, Self.goodAlerts, 3000, "timed out"),
        ]
        for (index, fault) in faults.enumerated() {
            try upstream.set(key: key, status: fault.status, body: fault.body, delayMs: fault.delayMs)
            let status = try refresh(daemon, "alerts")
            #expect(status["lastError"]?.stringValue?.contains(fault.error) == true, "\(fault.error): \(status.encodedString)")
            #expect(status["consecutiveFailures"]?.intValue == index + 1)
            #expect(status["loaded"] == true)
            #expect(status["count"]?.intValue == count)
            #expect(status["loadedAt"] == good["loadedAt"], "a failure never counts as a load")
            #expect(try glyphCount(daemon, "40990") == elevator, "still served from the last good set")
            #expect(try daemon.result("health")["status"] == "degraded")
        }
        try upstream.set(key: key, body: Self.goodAlerts)
        let recovered = try refresh(daemon, "alerts")
        #expect(recovered["lastError"] == .null)
        #expect(recovered["consecutiveFailures"] == 0)
        #expect(try daemon.result("health")["status"] == "ready")
    }

    @Test func ctaNoAlertsCodesAreAGoodEmptySet() throws {
        let key = key()
        try upstream.set(key: key, body: Self.goodAlerts)
        let daemon = try DaemonProcess(["--alerts-url", upstream.url("/dyn/\(key)"), "--stations-url", stopsFile])
        #expect(try glyphCount(daemon, "40990") != nil)
        for code in ["25", "50"] {
            try upstream.set(key: key, body: #"{"CTAAlerts":{"TimeStamp":"2026-11-29T10:00:00","ErrorCode":"\#(code)","ErrorMessage":"There are no active alerts"}}"#)
            let status = try refresh(daemon, "alerts")
            #expect(status["lastError"] == .null)
            #expect(status["count"] == 0)
            #expect(try glyphCount(daemon, "40990") == nil)
            try upstream.set(key: key, body: Self.goodAlerts)
            _ = try refresh(daemon, "alerts")
            #expect(try glyphCount(daemon, "40990") != nil)
        }
    }

    @Test func notModifiedIsAGoodRefreshThatKeepsTheData() throws {
        let key = key()
        try upstream.set(key: key, body: Self.goodAlerts, etag: true)
        let daemon = try DaemonProcess(["--alerts-url", upstream.url("/dyn/\(key)"), "--stations-url", stopsFile])
        let first = try daemon.result("health")["alerts"]!
        #expect(first["lastHTTPStatus"] == 200)
        let hits = try upstream.hits(key: key)
        let second = try refresh(daemon, "alerts")
        #expect(try upstream.hits(key: key) == hits + 1)
        #expect(second["lastHTTPStatus"] == 304)
        #expect(second["lastError"] == .null && second["consecutiveFailures"] == 0)
        #expect(second["count"] == first["count"])
        #expect(try glyphCount(daemon, "40990") != nil)
    }

    @Test func aStationRefreshReplacesTheWholeSetAndAFailureKeepsIt() throws {
        let key = key()
        try upstream.set(key: key, body: Self.allStops)
        let daemon = try DaemonProcess(["--demo", "--stations-url", upstream.url("/dyn/\(key)")])
        #expect(try daemon.result("health")["stations"]?["count"] == 143)
        #expect(try daemon.result("station", ["stopId": "40380"])["stationName"] == "Clark/Lake")
        // The same export with Clark/Lake's rows gone: gone from the daemon too.
        let fewer = Self.allStops.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains(",40380,") }.joined(separator: "\n")
        try upstream.set(key: key, body: fewer)
        #expect(try refresh(daemon, "stations")["count"] == 142)
        #expect(try daemon.call("stopSheet", ["stopId": "40380"])["error"]?["code"] == -32001)
        #expect(try daemon.call("stopSheet", ["stopId": "30374"])["error"]?["code"] == -32001)
        for (status, body) in [(503, ""), (200, "STOP_ID,MAP_ID\n"), (200, "garbage")] {
            try upstream.set(key: key, status: status, body: body)
            let failed = try refresh(daemon, "stations")
            #expect(failed["lastError"] != .null, "\(status) \(body)")
            #expect(failed["count"] == 142)
        }
        #expect(try daemon.result("station", ["stopId": "40990"])["stationName"] == "69th")
    }

    @Test func clientsAreAnsweredWhileTheUpstreamHangs() throws {
        let key = key()
        try upstream.set(key: key, body: Self.goodAlerts)
        let daemon = try DaemonProcess(["--alerts-url", upstream.url("/dyn/\(key)"), "--stations-url", stopsFile, "--http-timeout", "20"])
        try upstream.set(key: key, body: Self.goodAlerts, delayMs: 3000, etag: false)
        let before = try upstream.hits(key: key)
        let refresher = try daemon.client()
        #expect(refresher.send(line: #"{"jsonrpc":"2.0","id":"r","method":"refresh","params":{"what":"alerts"}}"#))
        // The hanging refresh reached the upstream before we ask: the upstream answers this once
        // its hit count has grown.
        #expect(try upstream.hits(key: key, above: before) > before, "the refresh never reached the upstream")
        let other = try daemon.client()
        for id in 0..<20 {
            let answer = try other.request(#"{"jsonrpc":"2.0","id":\#(id),"method":"stopSheet","params":{"stopId":"40990"}}"#)
            #expect(answer["result"]?["alertGlyph"] != nil)
        }
        #expect(try daemon.result("health")["status"] != nil)
        // Order, not timing: all of that was answered while the refresh was still in flight.
        #expect(refresher.readLine(timeout: 0) == nil, "the refresh answered before the other clients")
        let done = try #require(refresher.readLine(timeout: patience).map { try JSONParser.parse($0) })
        #expect(done["result"]?["alerts"]?["lastError"] == .null)
    }

    @Test func backoffRetriesSoonerThanTheInterval() throws {
        let key = key()
        try upstream.set(key: key, body: Self.goodAlerts)
        let daemon = try DaemonProcess(["--alerts-url", upstream.url("/dyn/\(key)"), "--stations-url", stopsFile, "--alerts-interval", "600"])
        func delay(_ status: JSON) throws -> Int64 {
            let next = try #require(status["nextRefreshAt"]?.stringValue.flatMap { ISO8601Time.instant($0, localTime: .utc) })
            let attempt = try #require(status["lastAttemptAt"]?.stringValue.flatMap { ISO8601Time.instant($0, localTime: .utc) })
            return next.seconds(since: attempt)
        }
        #expect(try delay(try daemon.result("health")["alerts"]!) >= 500, "after a success: the interval, with a little jitter")
        try upstream.set(key: key, status: 503)
        #expect(try delay(try refresh(daemon, "alerts")) <= 3, "after a failure: a retry within about a second")
        // Retries then happen on their own, no refresh call needed: STATUS= counts them.
        try daemon.waitForStatus({ $0.contains("alerts failing (2 in a row)") }, timeout: patience)
        #expect(try daemon.result("health")["alerts"]?["consecutiveFailures"]?.intValue ?? 0 >= 2)
    }
}
