import Foundation
import Glibc
import StopSheetClient
import StopSheetCore
import StopSheetTestSupport
import Testing

/// `stopsheetctl wait` and the client's `waitUntilLoaded`: waiting for a daemon and its data,
/// told by inotify and push. Every step here is ordered by a signal (STATUS=, an exit), no sleep.
@Suite struct WaitIntegrationTests {
    static let stations = "file://\(Fixtures.path("L_stops_2021.csv"))"

    @Test func aWaitStartedBeforeTheDaemonExistsReturnsOnceASlowUpstreamHasAnswered() throws {
        let upstream = try Upstream.shared()
        let key = "wait-\(UUID().uuidString)"
        try upstream.set(key: key, status: 503, body: "busy")
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Neither the socket nor its directory exists yet: the wait watches the nearest ancestor.
        let socket = directory + "/run/stopsheetd.sock"
        let outputPath = directory + "/wait.json"
        let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { close(output) }
        let wait = try ChildProcess(DaemonProcess.ctlBinary, ["--socket", socket, "--timeout", "\(patience)", "--json", "wait"],
                                    environment: ProcessInfo.processInfo.environment, stdout: output)
        defer { wait.signal(SIGKILL) }
        #expect(mkdir(directory + "/run", 0o755) == 0)
        let daemon = try DaemonProcess(["--alerts-url", upstream.url("/dyn/\(key)"), "--stations-url", Self.stations], socket: socket,
                                       until: { $0.contains("alerts failing") && $0.hasPrefix("serving 143 stations") })
        // The stations are in and the alerts upstream has failed: the data is not there, so the
        // wait must still be waiting.
        #expect(try daemon.result("health")["alerts"]?["loaded"] == false)
        #expect(wait.isRunning, "wait returned before the alerts had loaded")

        // The upstream now answers, slowly; the daemon's backoff brings it back within seconds.
        try upstream.set(key: key, status: 200, body: Fixtures.text("upstream/alerts.json"), delayMs: 1000)
        #expect(wait.wait(seconds: patience) == 0)
        let seen = try JSONParser.parse(Fixtures.bytes(atPath: outputPath))
        #expect(seen["alerts"]?["loaded"] == true, "\(seen)")
        #expect(seen["alerts"]?["lastHTTPStatus"] == 200)
        #expect(seen["stations"]?["loaded"] == true)
        #expect(try upstream.hits(key: key) >= 2)
    }

    @Test func aTimeoutExitsFourWithOneLineNamingWhatItWaitsFor() throws {
        // Stations loaded too, so that the line names alerts alone (a slow, sanitized daemon may
        // not have read them yet when the alerts have failed).
        let daemon = try DaemonProcess(["--alerts-url", "file:///nonexistent/alerts.json", "--stations-url", Self.stations],
                                       until: { $0.contains("alerts failing") && $0.hasPrefix("serving 143 stations") })
        let ctl = DaemonProcess.ctlBinary
        let timedOut = try runProcess(ctl, ["--socket", daemon.socketPath, "--timeout", "1", "wait"])
        #expect(timedOut.status == 4)
        #expect(timedOut.stdout == "")
        #expect(timedOut.stderr == """
            stopsheetctl: still waiting after 1 s for alerts from file:///nonexistent/alerts.json (last error: cannot open /nonexistent/alerts.json: No such file or directory)

            """)
        // What is there is not waited for.
        let stations = try runProcess(ctl, ["--socket", daemon.socketPath, "wait", "--for", "stations"])
        #expect(stations.status == 0)
        #expect(stations.stdout == "loaded: stations\n")

        let missing = daemon.directory + "/elsewhere.sock"
        let noSocket = try runProcess(ctl, ["--socket", missing, "--timeout", "0.5", "wait"])
        #expect(noSocket.status == 4)
        #expect(noSocket.stderr == "stopsheetctl: still waiting after 0.5 s for the daemon's socket \(missing) (No such file or directory)\n")

        let bad = try runProcess(ctl, ["--socket", daemon.socketPath, "wait", "--for", "everything"])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("stopsheetctl: --for: 'everything' is not one of all, alerts, stations, facilities\n"), "\(bad.stderr)")
    }

    @Test func waitingForASourceTheDaemonDoesNotHaveEndsAtOnce() throws {
        let daemon = try DaemonProcess(["--stations-url", Self.stations], until: { $0.hasPrefix("serving 143 stations") })
        let all = try runProcess(DaemonProcess.ctlBinary, ["--socket", daemon.socketPath, "wait"])
        #expect(all.status == 0)
        #expect(all.stdout == "loaded: stations; not configured: alerts, facilities\n")
        let alerts = try runProcess(DaemonProcess.ctlBinary, ["--socket", daemon.socketPath, "wait", "--for", "alerts"])
        #expect(alerts.status == 4)
        #expect(alerts.stderr == "stopsheetctl: alerts is not configured: the daemon has no --alerts-url, so it never loads\n")
    }

    /// The library's own: loaded already, it returns at once, and the client goes on as before.
    @Test func waitUntilLoadedOnAConnectedClient() throws {
        let daemon = try DaemonProcess(["--demo"])
        let client = try StopSheetClient.connect(socketPath: daemon.socketPath, waitingUpTo: .seconds(patience))
        let health = try client.waitUntilLoaded(timeout: .seconds(patience))
        #expect(health.alerts.loaded && health.stations.loaded)
        #expect(try client.stopSheet(stopId: "40380").stationName == "Clark/Lake")
        #expect(try client.health().subscriptions.value?.count == 0, "the wait's subscription ended with it")
    }
}
