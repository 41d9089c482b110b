import Foundation
import StopSheetCore
import StopSheetTestSupport
import Testing

/// `--notify-ready when-loaded`: READY=1 once every configured source has loaded once, STATUS=
/// saying what it waits for meanwhile, heard on a real notify socket (`DaemonNotifications`, as
/// systemd would hear it). Ordered by the daemon's own datagrams, never by a sleep.
@Suite struct NotifyReadyIntegrationTests {
    static let stations = "file://\(Fixtures.path("L_stops_2021.csv"))"

    static func isReady(_ datagram: String) -> Bool { datagram.split(separator: "\n").contains("READY=1") }

    @Test func aFailingUpstreamDelaysReadyUntilItHasLoaded() throws {
        let upstream = try Upstream.shared()
        let key = "notify-ready-\(UUID().uuidString)"
        try upstream.set(key: key, status: 503, body: "busy")
        let daemon = try DaemonProcess(["--alerts-url", upstream.url("/dyn/\(key)"), "--stations-url", Self.stations, "--notify-ready", "when-loaded"],
                                       waitForReady: false)
        // Stations are in, alerts failing: STATUS= says what READY=1 waits for, and why.
        try daemon.waitForStatus { $0.hasPrefix("waiting for alerts to load: serving 143 stations, no train alerts; alerts failing (") && $0.contains("no data yet): HTTP 503") }
        #expect(!daemon.notifications.received.contains(where: Self.isReady), "READY=1 before the alerts loaded")
        // Serving meanwhile: a client (and `stopsheetctl wait`) can already ask.
        #expect(try daemon.result("health")["status"] == "unavailable")

        try upstream.set(key: key, status: 200, body: Fixtures.text("upstream/alerts.json"))
        let ready = try #require(daemon.notifications.waitFor(Self.isReady, timeout: patience))
        #expect(ready.contains("STATUS=serving 143 stations, ") && !ready.contains("no train alerts") && !ready.contains("waiting"), "\(ready)")
        #expect(try daemon.result("health")["alerts"]?["loaded"] == true)
        #expect(daemon.notifications.received.filter(Self.isReady).count == 1)
    }

    @Test func whenLoadedWaitsOnlyForTheSourcesTheDaemonHas() throws {
        let daemon = try DaemonProcess(["--stations-url", Self.stations, "--notify-ready", "when-loaded"], waitForReady: false)
        let ready = try #require(daemon.notifications.waitFor(Self.isReady, timeout: patience))
        #expect(ready.contains("STATUS=serving 143 stations, no train alerts (not configured)"), "\(ready)")
    }

    /// The default is as before: READY=1 once serving, data or not.
    @Test func whenListeningIsReadyBeforeTheData() throws {
        let daemon = try DaemonProcess(["--alerts-url", "file:///nonexistent/alerts.json", "--stations-url", Self.stations],
                                       until: { $0.contains("alerts failing") })
        #expect(daemon.notifications.received.contains(where: Self.isReady))
        #expect(try daemon.result("health")["alerts"]?["loaded"] == false)
    }

    @Test func aBadValueIsRefused() throws {
        let result = try runProcess(DaemonProcess.binary, ["--check-config", "--demo", "--notify-ready", "when-ready"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--notify-ready: 'when-ready' is not one of when-listening, when-loaded"), "\(result.stderr)")
    }
}
