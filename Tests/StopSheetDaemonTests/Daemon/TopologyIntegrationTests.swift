import Foundation
import StopSheetCore
import StopSheetTestSupport
import Testing

/// A deployer's map (`--topology-url`, issue 50) through the real daemon, over CTA's real 'L'
/// stops and its real alerts of 2026-04-26: the example map of docs/examples/cta-topology as a
/// `file://` directory, as a `file://` zip, and as a zip over HTTP from the local upstream, where
/// a failing or garbled map keeps the last good one, with a notice in `health.stations` and a
/// warning in the journal.
@Suite(.serialized) struct TopologyIntegrationTests {
    static let stations = "file://" + Fixtures.path("L_stops_2021.csv")
    static let alerts = "file://" + Fixtures.path("alerts_2026-04-26.json")
    static let example = Fixtures.packageRoot + "/docs/examples/cta-topology"
    /// A minute after the capture was made: every alert in it is active.
    static let now = ["--now", "2026-04-26T10:57:08-05:00"]

    /// The example map zipped, in a directory of its own (an upstream's root).
    static func zipped() throws -> (directory: String, zip: String) {
        let directory = try makeTemporaryDirectory()
        let zip = directory + "/map.zip"
        let made = try runProcess("/usr/bin/env", ["python3", "-c", "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w') as z:\n    [z.write(sys.argv[2] + '/' + n, n) for n in ('stops.txt', 'pathways.txt', 'levels.txt')]",
                                                   zip, example])
        guard made.status == 0 else { throw TestFailure("zip: \(made.stderr)") }
        return (directory, zip)
    }

    /// Western's verdict: each platform's entry and exit, by stop id, and the verdict.
    static func western(_ daemon: DaemonProcess) throws -> (stepFree: JSON?, access: [String: [JSON?]]) {
        let now = try daemon.result("stopSheet", ["stopId": "41480"])["accessibilityButton"]?["now"]
        var access: [String: [JSON?]] = [:]
        for platform in now?["platforms"]?.arrayValue ?? [] {
            access[platform["stopId"]?.stringValue ?? ""] = [platform["entry"], platform["exit"]]
        }
        return (now?["stepFree"], access)
    }

    static let westernMapped: [String: [JSON?]] = ["30283": [true, true], "30284": [false, false]]

    @Test(arguments: ["directory", "zip"])
    func theExampleMapOverFile(_ form: String) throws {
        let url = form == "directory" ? "file://" + Self.example : "file://" + (try Self.zipped().zip)
        let daemon = try DaemonProcess(["--stations-url", Self.stations, "--alerts-url", Self.alerts, "--topology-url", url] + Self.now)
        defer { _ = daemon.stop() }
        let western = try Self.western(daemon)
        #expect(western.stepFree == "partial" && western.access == Self.westernMapped, "\(western)")
        let grand = try daemon.result("stopSheet", ["stopId": "40330"])["accessibilityButton"]?["now"]
        #expect(grand?["basis"] == "pathways" && grand?["outages"]?.arrayValue?.first?["pathways"] == .array(["40330-elevator-95th"]), "\(grand?.encodedString ?? "")")
        #expect(try daemon.result("health")["stations"]?["notices"]?["count"] == 0)
        let line = try StopSheetCtlIntegrationTests.ctl(["--socket", daemon.socketPath, "sheet", "41480"], columns: 200).stdout
        #expect(!line.contains("names no elevator"), "\(line)")
    }

    @Test func overHTTPTheLastGoodMapIsKept() throws {
        let (root, _) = try Self.zipped()
        let upstream = try Upstream(root: root)
        defer { upstream.stop() }
        let key = "topology-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try upstream.set(key: key, fixture: "map.zip")
        let daemon = try DaemonProcess(["--stations-url", Self.stations, "--alerts-url", Self.alerts, "--topology-url", upstream.url("/dyn/\(key)"),
                                        "--log-level", "info"] + Self.now)
        defer { _ = daemon.stop() }
        #expect(try Self.western(daemon).access == Self.westernMapped)
        let hits = try upstream.hits(key: key)
        #expect(hits >= 1)
        // Each stations refresh asks for the map again.
        _ = try daemon.result("refresh", ["what": "stations"])
        #expect(try upstream.hits(key: key) > hits)
        #expect(try Self.western(daemon).access == Self.westernMapped)
        for (status, body) in [(503, ""), (200, "<html>502 Bad Gateway</html>")] {
            try upstream.set(key: key, status: status, body: body)
            let refreshed = try daemon.result("refresh", ["what": "stations"])
            #expect(refreshed["stations"]?["lastError"] == .null, "the stations load all the same: \(refreshed.encodedString)")
            #expect(try Self.western(daemon).access == Self.westernMapped, "HTTP \(status)")
            let notices = try daemon.result("health")["stations"]?["notices"]?["first"]?.arrayValue ?? []
            #expect(notices.contains { $0["file"] == "topology" && $0["problem"]?.stringValue?.hasPrefix("the last good map kept: ") == true },
                    "\(notices)")
        }
        #expect(daemon.waitForLog { $0.contains("stations: the topology map was not taken, the last good map kept: topology ") } != nil)
    }

    /// `--check-config` reads a `file://` map against `file://` station data as a load would:
    /// each row skipped and each station refused a warning; a map that would not load, or a
    /// headers file that would not, an error.
    @Test func checkConfigReadsTheMap() throws {
        let socket = try makeTemporaryDirectory() + "/s.sock"
        let base = ["--check-config", "--socket", socket, "--stations-url", Self.stations]
        let handmade = "file://" + Fixtures.path("deployer-map")
        let checked = try runProcess(DaemonProcess.binary, base + ["--topology-url", handmade])
        #expect(checked.status == 0, "\(checked.stderr)")
        let lines = checked.stderr.split(separator: "\n").map(String.init)
        #expect(lines.last == "stopsheetd: configuration OK (7 warnings)", "\(checked.stderr)")
        #expect(lines.contains("warning: --topology-url \(handmade): topology pathways.txt line 1: station '40540': platform '30106' is not reached both ways from the street; its map is refused"),
                "\(checked.stderr)")
        let clean = try runProcess(DaemonProcess.binary, base + ["--topology-url", "file://" + Self.example])
        #expect(clean.status == 0 && clean.stderr == "stopsheetd: configuration OK\n", "\(clean.stderr)")
        let notAZip = try runProcess(DaemonProcess.binary, base + ["--topology-url", Self.stations])
        #expect(notAZip.status == 1 && notAZip.stderr.contains("--topology-url \(Self.stations) would not load: not a zip archive"), "\(notAZip.stderr)")
        let headers = try runProcess(DaemonProcess.binary, base + ["--topology-url", handmade, "--topology-headers-file", socket + ".none"])
        #expect(headers.status == 1 && headers.stderr.contains("--topology-headers-file: "), "\(headers.stderr)")
    }

    /// A map given in the config file is applied on SIGHUP: the reload's stations refresh reads
    /// it, and Western's platforms are then told apart.
    @Test func aReloadAppliesTheMap() throws {
        let config = try makeTemporaryDirectory() + "/stopsheetd.conf"
        try "".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--config", config, "--stations-url", Self.stations, "--alerts-url", Self.alerts] + Self.now)
        defer { _ = daemon.stop() }
        let before = try daemon.result("stopSheet", ["stopId": "41480"])["accessibilityButton"]?["now"]
        #expect(before?["basis"] == "stations", "\(before?.encodedString ?? "")")
        try "STOPSHEETD_TOPOLOGY_URL=file://\(Self.example)\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.process.signal(SIGHUP)
        #expect(daemon.waitForLog { $0.contains("reloaded") } != nil)
        #expect(try Self.western(daemon).access == Self.westernMapped)
    }
}
