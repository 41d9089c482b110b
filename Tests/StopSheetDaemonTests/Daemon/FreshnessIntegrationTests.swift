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
        #expect(sheet["data"]?["alerts"] == ["loaded": false, "ageSeconds": nil, "stale": false, "producedAt": nil, "configured": true], "no glyph here means unknown, not all clear")
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

    /// The real MBTA capture of 2017, served as it is: loaded a moment ago, and stale all the
    /// same, since its own `header.timestamp` says it was made years ago. The sheet shows when,
    /// in the feed's zone; `health` says why it is stale, and stale is not failing.
    @Test func aFeedMadeYearsAgoIsStaleThoughJustLoaded() throws {
        let capture = Fixtures.directory + "/gtfs-realtime/mbta-2017-12-23_alerts.pb"
        let daemon = try DaemonProcess(["--alerts-url", "file://" + capture, "--stations-url", "file://" + AnyAgencyIntegrationTests.fixture])
        let data = try daemon.result("stopSheet", ["stopId": "place-hymnl"])["data"]?["alerts"]
        #expect(data?["stale"] == true && data?["loaded"] == true, "\(data?.encodedString ?? "")")
        #expect(data?["producedAt"] == "2017-12-23T08:00:19-05:00")
        #expect(data?["ageSeconds"]?.intValue ?? .max < 600, "a fresh load: the feed's time alone makes it stale")
        let health = try daemon.result("health")
        #expect(health["alerts"]?["stale"] == true && health["alerts"]?["producedAt"] == "2017-12-23T08:00:19-05:00")
        #expect(health["alerts"]?["note"] == "the feed says it was made at 2017-12-23T08:00:19-05:00, over 600 s ago", "\(health.encodedString)")
        #expect(health["status"] == "ready", "stale is not failing")
    }
}
