import Foundation
import StopSheetCore
import StopSheetTestSupport
import Testing

/// One source is enough: a daemon given only `--stations-url` or only `--alerts-url` starts and
/// is `ready`; the other cache is "not configured" (never "not loaded"), and sheets follow the
/// spec's absent-data rules: no glyph without alert data, a muted button without station data.
@Suite struct SingleSourceIntegrationTests {
    static let stations = "file://\(Fixtures.path("L_stops_2021.csv"))"
    static let alerts = "file://\(Fixtures.path("alerts_2015-02-14.DERIVED.json"))"

    @Test func onlyStations() throws {
        let daemon = try DaemonProcess(["--stations-url", Self.stations],
                                       until: { $0.hasPrefix("serving 143 stations, no train alerts (not configured)") })
        let health = try daemon.result("health")
        #expect(health["status"] == "ready")
        #expect(health["alerts"]?["configured"] == false)
        #expect(health["alerts"]?["loaded"] == false)
        #expect(health["alerts"]?["source"] == .null)
        #expect(health["alerts"]?["consecutiveFailures"] == 0)
        #expect(health["stations"]?["configured"] == true)
        #expect(health["stations"]?["loaded"] == true)

        let sheet = try daemon.result("stopSheet", ["stopId": "40380"])
        #expect(sheet["stationName"] == "Clark/Lake")
        #expect(sheet["alertGlyph"] == .null, "no glyph without alert data")
        #expect(sheet["alerts"] == [])
        #expect(sheet["accessibilityButton"]?["tone"] == "good")
        #expect(sheet["accessibilityButton"]?["alert"]?["message"] == "Step-free access is available at Clark/Lake.")
        #expect(sheet["data"]?["alerts"] == ["loaded": false, "ageSeconds": nil, "stale": false, "producedAt": nil, "configured": false])
        #expect(sheet["data"]?["stations"]?["configured"] == true)
        #expect(sheet["data"]?["stations"]?["loaded"] == true)

        let refused = try daemon.call("alerts")
        #expect(refused["error"]?["code"] == -32005)
        #expect(refused["error"]?["data"] == "alerts: not configured (the daemon has no --alerts-url)")
        // `refresh` fetches what has a source and reports the other as it is.
        let refreshed = try daemon.refreshAll()
        #expect(refreshed["alerts"]?["configured"] == false)
        #expect(refreshed["stations"]?["loaded"] == true)
        #expect(try daemon.result("stats")["refreshes"]?["alerts"] == ["source": nil, "ok": 0, "failed": 0])

        let shown = try runProcess(DaemonProcess.ctlBinary, ["--socket", daemon.socketPath, "sheet", "40380"])
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("train alerts not configured · step-free access"), "\(shown.stdout)")
        #expect(shown.stdout.contains("Train alert data is not configured: the daemon has no source for it."), "\(shown.stdout)")
    }

    @Test func onlyAlerts() throws {
        let daemon = try DaemonProcess(["--alerts-url", Self.alerts, "--now", "2015-02-14T14:35:00-06:00"],
                                       until: { $0.hasPrefix("serving no stations (not configured), 17 train alerts") })
        let health = try daemon.result("health")
        #expect(health["status"] == "ready")
        #expect(health["stations"]?["configured"] == false)
        #expect(health["stations"]?["loaded"] == false)
        #expect(health["alerts"]?["configured"] == true)
        #expect(health["alerts"]?["count"] == 17)

        let sheet = try daemon.result("stopSheet", ["stopId": "40380", "stationName": "Clark/Lake"])
        #expect(sheet["stationName"] == "Clark/Lake")
        #expect(sheet["accessibilityButton"]?["tone"] == "muted", "muted without station data")
        #expect(sheet["accessibilityButton"]?["alert"]?["message"] == "Accessibility information is currently unavailable for Clark/Lake.")
        #expect(sheet["alertGlyph"] == .null)
        #expect(sheet["data"]?["stations"] == ["loaded": false, "ageSeconds": nil, "stale": false, "producedAt": nil, "configured": false])
        #expect(sheet["data"]?["alerts"]?["loaded"] == true)

        #expect(try daemon.result("alerts")["count"] == 17)
        let refused = try daemon.call("alerts", ["stopId": "40380"])
        #expect(refused["error"]?["code"] == -32005)
        #expect(refused["error"]?["data"] == "stations: not configured (the daemon has no --stations-url)")
        #expect(try daemon.call("stations")["error"]?["data"] == "stations: not configured (the daemon has no --stations-url)")
    }

    /// A failing single source makes the daemon `unavailable`, as with two: the one it has is what counts.
    @Test func aSingleFailingSourceIsUnavailable() throws {
        let daemon = try DaemonProcess(["--alerts-url", "file:///nonexistent/alerts.json"], until: { $0.contains("alerts failing") })
        let health = try daemon.result("health")
        #expect(health["status"] == "unavailable")
        #expect(health["stations"]?["configured"] == false)
    }

    @Test func noSourceAtAllIsStillRefused() throws {
        let result = try runProcess(DaemonProcess.binary, ["--check-config"], environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("STOPSHEETD_") })
        #expect(result.status == 1)
        #expect(result.stderr.contains("no data source: give --alerts-url, --stations-url or both, or --demo"), "\(result.stderr)")
    }
}
