import Foundation
import Glibc
import StopSheetCore
import Testing

/// The real binary's lifecycle under SIGHUP and SIGTERM: a stop is never held up by a reload,
/// and a reload that cannot load its configuration says so once and still ends systemd's job.
@Suite struct LifecycleIntegrationTests {
    /// A daemon whose alerts come from a scripted upstream key and whose settings come from a
    /// config file the test rewrites before each SIGHUP.
    final class Rig {
        let upstream: Upstream
        let alertsKey = "lifecycle-alerts-\(UUID().uuidString)"
        let configDirectory: String
        let configPath: String
        let daemon: DaemonProcess

        init() throws {
            upstream = try Upstream.shared()
            try upstream.set(key: alertsKey, body: Fixtures.text("upstream/alerts.json"))
            configDirectory = try makeTemporaryDirectory()
            configPath = configDirectory + "/stopsheetd.conf"
            try Rig.configure(configPath, upstream.url("/dyn/\(alertsKey)"))
            daemon = try DaemonProcess(["--config", configPath])
        }

        deinit { try? FileManager.default.removeItem(atPath: configDirectory) }

        /// The config file: the sources (flags would override the file, so they live here) and
        /// `extra` lines. A fetch may take a minute: only the stop's own bound ends a test early.
        static func configure(_ path: String, _ alertsURL: String, _ extra: String = "",
                              stationsURL: String = "file://\(Fixtures.path("L_stops_2021.csv"))") throws {
            let text = """
                STOPSHEETD_ALERTS_URL=\(alertsURL)
                STOPSHEETD_STATIONS_URL=\(stationsURL)
                STOPSHEETD_HTTP_TIMEOUT=60

                """ + extra
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }

        /// SIGHUP, then the RELOADING=1 that says the reload thread took it.
        func reload() throws {
            daemon.process.signal(SIGHUP)
            guard daemon.notifications.waitFor({ $0.contains("RELOADING=1") }, timeout: patience) != nil else {
                throw TestFailure("no RELOADING=1 after SIGHUP; stderr: \(daemon.stderrText())")
            }
        }

        /// Whether the daemon logs to stderr (and not to a journald it found).
        var logsToStderr: Bool { access("/run/systemd/journal/socket", F_OK) != 0 }
    }

    @Test func sigtermDuringAReloadStuckOnAHangingUpstreamStopsTheDaemon() throws {
        let rig = try Rig()
        // From now on the upstream holds every alerts fetch for a minute.
        try rig.upstream.set(key: rig.alertsKey, body: Fixtures.text("upstream/alerts.json"), delayMs: 60_000)
        let hitsBefore = try rig.upstream.hits(key: rig.alertsKey)
        // A client's `refresh` waits on the same hung fetch: the stop must answer it too.
        let client = try rig.daemon.client()
        defer { client.close() }
        func stationRefreshes() -> Int {
            let stations = (try? rig.daemon.result("stats"))?["refreshes"]?["stations"]
            return (stations?["ok"]?.intValue ?? 0) + (stations?["failed"]?.intValue ?? 0)
        }
        let stationsBefore = stationRefreshes()
        // The reload takes its stations from the upstream too (answered at once), so that the
        // start of its stations refresh can be seen there.
        let stationsKey = "lifecycle-stations-\(UUID().uuidString)"
        try rig.upstream.set(key: stationsKey, body: Fixtures.text("L_stops_2021.csv"))
        try Rig.configure(rig.configPath, rig.upstream.url("/dyn/\(rig.alertsKey)"), stationsURL: rig.upstream.url("/dyn/\(stationsKey)"))
        try rig.reload()
        // The upstream answers these once the reload's alerts fetch, and its stations fetch, arrived.
        #expect(try rig.upstream.hits(key: rig.alertsKey, above: hitsBefore) > hitsBefore, "the reload's refresh never reached the upstream")
        #expect(try rig.upstream.hits(key: stationsKey, above: 0) > 0, "the reload's stations refresh never reached the upstream")
        // That stations refresh ends by itself (on a slow machine under a sanitizer, after the
        // stop's join would give up): waiting for it leaves the hung fetch the only work a stop
        // has to abandon. A `refresh` of the stations is answered by a fetch that started after
        // it was asked for, and the refresher fetches one at a time: so its answer comes once
        // the reload's stations refresh, under way already, has ended.
        #expect(try rig.daemon.result("refresh", ["what": "stations"])["stations"]?["loaded"] == true)
        #expect(stationRefreshes() > stationsBefore + 1, "the reload's stations refresh and the one asked for never ended")
        #expect(client.send(line: #"{"jsonrpc":"2.0","id":7,"method":"refresh","params":{"what":"alerts"}}"#))

        rig.daemon.process.signal(SIGTERM)
        // A bound, not a threshold: the stop takes milliseconds; 8 s only keeps a broken daemon
        // from hanging the suite (the fetch it would wait for takes 60 s).
        let status = rig.daemon.process.wait(seconds: 8)
        #expect(status == 0, "stopsheetd still running (nil) or exited badly 8 s after SIGTERM; stderr: \(rig.daemon.stderrText())")
        #expect(!rig.daemon.process.isRunning)
        let answer = try client.readLine().map { try JSONParser.parse($0) }
        #expect(answer?["id"] == 7 && answer?["result"] != nil, "the waiting refresh was not answered: \(String(describing: answer))")
        let afterReloading = rig.daemon.notifications.received.drop(while: { !$0.contains("RELOADING=1") })
        #expect(afterReloading.contains { $0.contains("STOPPING=1") })
        #expect(!afterReloading.contains { $0.contains("READY=1") }, "READY=1 after STOPPING=1: \(afterReloading)")
        // The hung fetch was abandoned, so every thread ended before the process did.
        if rig.logsToStderr {
            #expect(!rig.daemon.stderrText().contains("thread_busy_at_exit"), "\(rig.daemon.stderrText())")
        }
    }

    /// The race that lost a client at restart: accepted a moment before SIGTERM, first request
    /// written after it. Ordered by the daemon's own signals, no sleep: the listener hands out
    /// connections in the order they were made, so once the second is answered the first was
    /// accepted (`stats` counts both), and the STATUS= of the drain says the loop took the stop.
    @Test func aClientAcceptedBeforeSIGTERMIsAnsweredAfterIt() throws {
        let daemon = try DaemonProcess(["--demo"])
        let early = try daemon.client()
        let witness = try daemon.client()
        let stats = try witness.request(#"{"jsonrpc":"2.0","id":1,"method":"stats"}"#)
        #expect(stats["result"]?["connections"]?["open"] == 2, "\(stats)")

        daemon.process.signal(SIGTERM)
        let drain = daemon.notifications.waitFor({ $0.hasPrefix("STATUS=stopping: finishing ") }, timeout: patience)
        #expect(drain == "STATUS=stopping: finishing 2 open connections, accepting none")
        let answer = try early.request(#"{"jsonrpc":"2.0","id":"after","method":"version"}"#)
        #expect(answer["id"] == "after" && answer["result"]?["name"] == "stopsheetd", "\(answer)")
        // Then both, quiet, are closed when the grace ends, and the daemon exits 0.
        #expect(early.waitForClose())
        #expect(witness.waitForClose())
        #expect(daemon.process.wait(seconds: patience) == 0, "stderr: \(daemon.stderrText())")
    }

    @Test func aFailedReloadLogsOneErrorAndStillEndsTheReloadJob() throws {
        let rig = try Rig()
        try Rig.configure(rig.configPath, rig.upstream.url("/dyn/\(rig.alertsKey)"), "STOPSHEETD_ALERTS_INTERVAL=soon\n")
        try rig.reload()
        guard rig.daemon.notifications.waitFor({ $0.contains("READY=1") }, timeout: patience) != nil else {
            Issue.record("no READY=1 after a failed reload; stderr: \(rig.daemon.stderrText())")
            return
        }
        // Still serving, on the configuration it had.
        #expect(try rig.daemon.result("health")["alerts"]?["loaded"] == true)
        #expect(rig.daemon.stop() == 0)
        guard rig.logsToStderr else { return }
        let lines = rig.daemon.stderrText().split(separator: "\n")
        let errors = lines.filter { $0.hasPrefix("error: ") || $0.hasPrefix("critical: ") }
        #expect(errors.count == 1, "\(lines)")
        #expect(errors.first?.contains("STOPSHEETD_ALERTS_INTERVAL") == true, "the error names the setting: \(errors)")
        #expect(!lines.contains { $0.contains("reloaded") }, "\(lines)")
    }

    /// The serving loop's limits, the clock and start-up's readiness keep their running values
    /// through a reload, each changed one named once; the other options are applied.
    @Test func aReloadNamesWhatTakesEffectAtRestartAndKeepsIt() throws {
        let rig = try Rig()
        let readies = { rig.daemon.notifications.received.filter { $0.contains("READY=1") }.count }
        let before = readies()
        try Rig.configure(rig.configPath, "file://\(Fixtures.path("alerts_2015-02-14.DERIVED.json"))",
                          "STOPSHEETD_MAX_BATCH=2\nSTOPSHEETD_MAX_CONNECTIONS=5\nSTOPSHEETD_NOW=2015-02-14T14:35:00-06:00\nSTOPSHEETD_NOTIFY_READY=when-loaded\n")
        try rig.reload()
        #expect(rig.daemon.notifications.waitFor({ $0.contains("READY=1") }, timeout: patience) != nil, "no READY=1 after the reload")
        #expect(readies() > before)
        // Applied: the source.
        let health = try rig.daemon.result("health")
        #expect(health["alerts"]?["source"]?.stringValue?.hasSuffix("alerts_2015-02-14.DERIVED.json") == true)
        // Kept: the real clock (a reload never moves it).
        #expect(health["clock"]?["pinned"] == false)
        // Kept: a batch of three, over the new limit of two, is answered whole.
        let client = try rig.daemon.client()
        defer { client.close() }
        let batch = try client.request(#"[{"jsonrpc":"2.0","id":1,"method":"version"},{"jsonrpc":"2.0","id":2,"method":"version"},{"jsonrpc":"2.0","id":3,"method":"version"}]"#)
        #expect(batch.arrayValue?.count == 3, "\(batch.encodedString)")
        #expect(rig.daemon.stop() == 0)
        guard rig.logsToStderr else { return }
        let warnings = rig.daemon.stderrText().split(separator: "\n").filter { $0.hasPrefix("warning: ") && $0.contains("takes effect at restart") }
        #expect(warnings.filter { $0.contains("--max-batch ") }.count == 1, "\(warnings)")
        #expect(warnings.filter { $0.contains("--max-connections ") }.count == 1, "\(warnings)")
        #expect(warnings.filter { $0.contains("--now ") }.count == 1, "\(warnings)")
        #expect(warnings.filter { $0.contains("--notify-ready ") }.count == 1, "\(warnings)")
        #expect(warnings.count == 4, "only what changed, each once: \(warnings)")
    }

    @Test func aGoodReloadAppliesTheNewConfiguration() throws {
        let rig = try Rig()
        try Rig.configure(rig.configPath, "file://\(Fixtures.path("alerts_2015-02-14.DERIVED.json"))")
        try rig.reload()
        #expect(rig.daemon.notifications.waitFor({ $0.contains("READY=1") }, timeout: patience) != nil)
        #expect(try rig.daemon.result("health")["alerts"]?["source"]?.stringValue?.hasSuffix("alerts_2015-02-14.DERIVED.json") == true)
        #expect(rig.daemon.stop() == 0)
        if rig.logsToStderr { #expect(rig.daemon.stderrText().contains("reloaded")) }
    }
}
