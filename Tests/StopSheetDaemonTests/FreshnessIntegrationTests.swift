import Foundation
import StopSheetCore
import Testing
@testable import StopSheetDaemon

/// Issue 12 through the real daemon and a local upstream: never loaded is not "no alerts", the
/// daemon recovers by itself, and old data says it is stale. Waits are on the daemon's own
/// STATUS= notifications (sent after every refresh and every tick), each with a generous bound.
@Suite(.serialized) struct FreshnessIntegrationTests {
    let upstream: Upstream
    let stopsFile = "file://\(Fixtures.directory)/L_stops_2021.csv"

    init() throws { upstream = try Upstream.shared() }

    func key(_ name: String = #function) -> String { "\(name.prefix { $0 != "(" })-\(getpid())-\(UInt32.random(in: 0...UInt32.max))" }

    @Test func unreachableAlertsAreUnavailableThenReadyOnceTheUpstreamRecovers() throws {
        let key = key()
        // An upstream that does not answer within --http-timeout: nothing ever loads.
        try upstream.set(key: key, body: HTTPRefreshIntegrationTests.goodAlerts, delayMs: 5_000)
        let daemon = try DaemonProcess(["--alerts-url", upstream.url("/dyn/\(key)"), "--stations-url", stopsFile, "--http-timeout", "0.3"]) {
            $0.contains("alerts failing") && $0.contains("no data yet") && !$0.hasPrefix("serving no stations")
        }
        let health = try daemon.result("health")
        #expect(health["status"] == "unavailable")
        #expect(health["alerts"]?["loaded"] == false && health["alerts"]?["ageSeconds"] == .null && health["alerts"]?["stale"] == false)
        #expect(health["stations"]?["loaded"] == true)
        let sheet = try daemon.result("stopSheet", ["stopId": "40990"])
        #expect(sheet["alertGlyph"] == .null)
        #expect(sheet["data"]?["alerts"] == ["loaded": false, "ageSeconds": nil, "stale": false, "configured": true], "no glyph here means unknown, not all clear")
        #expect(sheet["data"]?["stations"]?["loaded"] == true)
        #expect(sheet["accessibilityButton"]?["advisories"] == [])
        let log = daemon.stderrText()
        #expect(log.contains("alerts refresh failed, no data yet"), "\(log.suffix(600))")
        #expect(!log.contains("keeping the last good data"))

        // The upstream comes back: the refresher's own retry loads it, no refresh call needed.
        try upstream.set(key: key, body: HTTPRefreshIntegrationTests.goodAlerts)
        try daemon.waitForStatus({ DaemonProcess.bothLoaded($0) && !$0.contains("failing") }, timeout: 120)
        #expect(try daemon.result("health")["status"] == "ready")
        let recovered = try daemon.result("stopSheet", ["stopId": "40990"])
        #expect(recovered["data"]?["alerts"]?["loaded"] == true)
        #expect(recovered["data"]?["alerts"]?["stale"] == false)
        #expect(recovered["alertGlyph"]?["count"]?.intValue ?? 0 > 0)
    }

    @Test func alertsOlderThanTheLimitAreStaleInSheetsAndHealth() throws {
        let key = key()
        try upstream.set(key: key, body: HTTPRefreshIntegrationTests.goodAlerts)
        let daemon = try DaemonProcess(["--alerts-url", upstream.url("/dyn/\(key)"), "--stations-url", stopsFile,
                                        "--alerts-stale-after", "1", "--alerts-interval", "3600"])
        // STATUS= says "alerts Ns old" every tick: wait, on it, until the alerts are over 1 s old.
        try daemon.waitForStatus({ status in
            guard let range = status.range(of: "; alerts ") else { return false }
            return Int(status[range.upperBound...].prefix { $0.isNumber }).map { $0 >= 2 } ?? false
        }, timeout: 60)
        let sheet = try daemon.result("stopSheet", ["stopId": "40380"])
        #expect(sheet["data"]?["alerts"]?["stale"] == true)
        #expect(sheet["data"]?["alerts"]?["ageSeconds"]?.intValue ?? 0 >= 2)
        #expect(sheet["data"]?["stations"]?["stale"] == false, "stations have their own limit, 3 × 3600 s")
        let health = try daemon.result("health")
        #expect(health["alerts"]?["stale"] == true)
        #expect(health["status"] == "ready", "stale is not failing")
    }
}
