import Foundation
import Glibc
import StopSheetCore
import Testing

/// A hostile or broken upstream, through the real daemon and a real local HTTP upstream: every
/// bad body is a failed refresh that keeps the last good data, with the reason in
/// `health.<cache>.lastError` and in the log. Nothing an upstream sends may crash the daemon,
/// bloat it, or change what clients see.
@Suite(.serialized) struct UpstreamAbuseIntegrationTests {
    /// Set by `make sanitize`: sanitizer builds hold freed memory in quarantine and run a
    /// 100 000-row CSV decode for over a minute (the item cap has unit tests of its own).
    let sanitized = ProcessInfo.processInfo.environment["STOPSHEET_SANITIZER"] != nil

    /// An upstream of its own serving abusive files from a temp directory; each cache's URL is a
    /// `/dyn/` key the test points at one of them.
    final class Rig {
        let root: String
        let upstream: Upstream
        let daemon: DaemonProcess
        let alertsKey = "alerts-\(UUID().uuidString)"
        let stationsKey = "stations-\(UUID().uuidString)"

        init() throws {
            root = try makeTemporaryDirectory()
            try FileManager.default.copyItem(atPath: Fixtures.path("upstream/alerts.json"), toPath: root + "/good-alerts.json")
            try FileManager.default.copyItem(atPath: Fixtures.path("L_stops_2021.csv"), toPath: root + "/good-stops.csv")
            upstream = try Upstream(root: root)
            do {
                try Self.serve(upstream, alertsKey, "good-alerts.json")
                try Self.serve(upstream, stationsKey, "good-stops.csv")
                daemon = try DaemonProcess(["--alerts-url", upstream.url("/dyn/\(alertsKey)"),
                                            "--stations-url", upstream.url("/dyn/\(stationsKey)")])
            } catch {
                upstream.stop()
                throw error
            }
        }

        deinit {
            daemon.stop()
            upstream.stop()
            try? FileManager.default.removeItem(atPath: root)
        }

        static func serve(_ upstream: Upstream, _ key: String, _ file: String) throws {
            let spec = try JSONSerialization.data(withJSONObject: ["fixture": file, "etag": false])
            let (code, _) = try upstream.request("PUT", "/set/\(key)", body: [UInt8](spec))
            guard code == 204 else { throw TestFailure("PUT /set/\(key): HTTP \(code)") }
        }

        func write(_ name: String, _ bytes: [UInt8]) throws {
            guard FileManager.default.createFile(atPath: root + "/" + name, contents: Data(bytes)) else {
                throw TestFailure("cannot write \(name)")
            }
        }

        /// Points `cache` at `file`, refreshes it through the daemon, and returns its health entry.
        func refresh(_ cache: String, from file: String) throws -> JSON {
            try Self.serve(upstream, cache == "alerts" ? alertsKey : stationsKey, file)
            // Generous: a sanitizer build takes many seconds over a 100 000-row CSV.
            let client = try daemon.client()
            defer { client.close() }
            let request = JSON.object(JSONObject([("jsonrpc", "2.0"), ("id", 1), ("method", "refresh"), ("params", ["what": .string(cache)])]))
            let refreshed = try client.request(request.encodedString, timeout: 120)
            return try #require(refreshed["result"]?[cache], "\(refreshed.encodedString.prefix(300))")
        }

        /// Refreshes alerts from each file in turn: each is a failure with its reason that keeps
        /// `liveAlerts` and what clients see (`view`), and leaves the daemon degraded.
        func expectEachAlertBodyFails(_ cases: [(file: String, reason: String)], keeping liveAlerts: Int, view before: [JSON],
                                      sourceLocation: SourceLocation = #_sourceLocation) throws {
            var failures = 0
            for (file, reason) in cases {
                let entry = try refresh("alerts", from: file)
                UpstreamAbuseIntegrationTests.expectFailed(entry, reason, after: &failures, sourceLocation: sourceLocation)
                #expect(entry["count"]?.intValue == liveAlerts, "\(file)", sourceLocation: sourceLocation)
                #expect(try view() == before, "what clients see changed after \(file)", sourceLocation: sourceLocation)
                #expect(try daemon.result("health")["status"] == "degraded", sourceLocation: sourceLocation)
            }
        }

        /// What clients see; must not change while the upstream misbehaves.
        func view() throws -> [JSON] {
            [try daemon.result("alerts"), try daemon.result("stopSheet", ["stopId": "40380"]).comparableSheet,
             try daemon.result("station", ["stopId": "40380"]), try daemon.result("health")["stations"]?["count"] ?? .null]
        }
    }

    /// `failures`: the count before this refresh. The refresher also retries on its own after a
    /// failure (backoff from 1 s), so a slow build may see more than one more.
    static func expectFailed(_ entry: JSON, _ fragment: String, after failures: inout Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = entry["lastError"]?.stringValue ?? ""
        #expect(error.contains(fragment), "lastError: \(error.prefix(300))", sourceLocation: sourceLocation)
        #expect(entry["loaded"] == true, sourceLocation: sourceLocation)
        let now = entry["consecutiveFailures"]?.intValue ?? 0
        #expect(now > failures, sourceLocation: sourceLocation)
        failures = now
        // One journal line: no control characters, and short whatever the upstream sent.
        #expect(!error.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, sourceLocation: sourceLocation)
        #expect(error.utf8.count <= 512, "lastError is \(error.utf8.count) bytes", sourceLocation: sourceLocation)
    }

    @Test func badAlertBodiesAreFailedRefreshesThatKeepTheLastGoodData() throws {
        let rig = try Rig()
        let before = try rig.view()
        let health = try rig.daemon.result("health")
        #expect(health["alerts"]?["loaded"] == true)
        let liveAlerts = try #require(health["alerts"]?["count"]?.intValue)
        #expect(liveAlerts > 10)

        // A million alerts in both formats: compact enough to pass the byte cap, so the item cap
        // has to catch them.
        try rig.write("million-app.json", Array(#"{"alerts":["#.utf8) + Array(repeating: Array("{},".utf8), count: 999_999).flatMap { $0 } + Array("{}]}".utf8))
        try rig.write("million-cta.json", Array(#"{"CTAAlerts":{"ErrorCode":"0","Alert":["#.utf8)
            + Array(repeating: Array("{},".utf8), count: 999_999).flatMap { $0 } + Array("{}]}}".utf8))
        // Over the 16 MiB body cap (refused on Content-Length, before a byte of body is read).
        try rig.write("over-cap.json", Array(#"{"alerts":[]}"#.utf8) + Array(repeating: 0x20, count: 17 << 20))
        // The good body with one byte that is not UTF-8 in a headline.
        var invalid = Array(try Data(contentsOf: URL(fileURLWithPath: rig.root + "/good-alerts.json")))
        let headline = try #require(invalid.firstRange(of: Array("Elevator".utf8)))
        invalid[headline.lowerBound] = 0xFF
        try rig.write("invalid-utf8.json", invalid)
        // Deeper than any parser stack should go.
        try rig.write("deep.json", Array(#"{"alerts":"#.utf8) + Array(repeating: UInt8(ascii: "["), count: 200_000)
            + Array(repeating: UInt8(ascii: "]"), count: 200_000) + Array("}".utf8))
        // A root key that tries to start a new log line, and is long.
        try rig.write("injection.json", Array(#"{"\n<0>stopsheetd: forged emergency\r\n":1,""#.utf8) + Array(repeating: UInt8(ascii: "k"), count: 100_000) + Array(#"":2}"#.utf8))
        try rig.write("html.json", Array("<html><body>502 Bad Gateway</body></html>".utf8))
        try rig.write("empty.json", [])
        try rig.write("wrong-types.json", Array(#"{"alerts":[{"id":["x"],"headline":{}}]}"#.utf8))

        let cases: [(file: String, reason: String)] = [
            ("million-app.json", "more than the limit of 100000"),
            ("million-cta.json", "more than the limit of 100000"),
            ("over-cap.json", "larger than 16777216 bytes"),
            ("invalid-utf8.json", "not valid UTF-8"),
            ("deep.json", "nested deeper than 64"),
            ("injection.json", "unrecognised upstream format"),
            ("html.json", "body is not JSON"),
            ("empty.json", "empty body"),
            ("wrong-types.json", "malformed upstream data"),
        ]
        try rig.expectEachAlertBodyFails(cases, keeping: liveAlerts, view: before)
        // Decoding is transient (a 16 MiB body of tiny values peaks near 240 MB): what must not
        // stay is the memory. Sanitizer builds keep freed memory in quarantine, so only plain ones.
        if !sanitized {
            let rss = residentKilobytes(rig.daemon.pid)
            #expect(rss < 150_000, "daemon RSS \(rss) kB after the abuse")
        }

        // The upstream recovers: so does the daemon.
        let recovered = try rig.refresh("alerts", from: "good-alerts.json")
        #expect(recovered["lastError"] == .null && recovered["consecutiveFailures"] == 0)
        #expect(try rig.daemon.result("health")["status"] == "ready")
        #expect(try rig.view() == before)

        // Each failure was logged with its reason, on one line each (when logging to stderr).
        rig.daemon.stop()
        guard access("/run/systemd/journal/socket", F_OK) != 0 else { return }
        let log = rig.daemon.stderrText()
        let logged = log.split(separator: "\n").filter { $0.contains("STOPSHEET_EVENT=refresh_failed") }
        #expect(logged.count >= cases.count, "\(log.suffix(2000))")
        for (file, reason) in cases {
            #expect(logged.contains { $0.contains(reason) }, "no log line for \(file)")
        }
        #expect(!log.contains("\n<0>"), "an upstream forged a log line")
    }

    @Test func badStationBodiesAreFailedRefreshesThatKeepTheLastGoodData() throws {
        let rig = try Rig()
        let before = try rig.view()
        #expect(try rig.daemon.result("health")["stations"]?["count"] == 143)

        let header = try String(contentsOfFile: rig.root + "/good-stops.csv", encoding: .utf8).split(separator: "\n")[0]
        let row = "30001,N,a,b,c,40001,true,true,false,false,false,false,false,false,false,false,\"(1, 2)\"\n"
        try rig.write("many-rows.csv", Array((header + "\n").utf8) + Array(repeating: Array(row.utf8), count: 100_001).flatMap { $0 })
        try rig.write("million-json.json", Array("[".utf8) + Array(repeating: Array("{},".utf8), count: 999_999).flatMap { $0 } + Array("{}]".utf8))
        var invalid = Array(try Data(contentsOf: URL(fileURLWithPath: rig.root + "/good-stops.csv")))
        invalid[invalid.count / 2] = 0xC0
        try rig.write("invalid-utf8.csv", invalid)
        try rig.write("deep.json", Array(repeating: UInt8(ascii: "["), count: 200_000) + Array(repeating: UInt8(ascii: "]"), count: 200_000))
        try rig.write("header-only.csv", Array((header + "\n").utf8))
        try rig.write("unterminated.csv", Array((header + "\n30001,\"N").utf8) + Array(repeating: UInt8(ascii: "x"), count: 1 << 20))

        let cases: [(file: String, reason: String)] = [
            ("many-rows.csv", "more than the limit of 100000"),
            ("million-json.json", "more than the limit of 100000"),
            ("invalid-utf8.csv", "not valid UTF-8"),
            ("deep.json", "nested deeper than 64"),
            ("header-only.csv", "no stations"),
            // As Python's csv reads it, the open quote runs to the end: a row of two fields.
            ("unterminated.csv", "row 2: 2 fields, the header has 17"),
        ]
        var failures = 0
        for (file, reason) in cases where !(file == "many-rows.csv" && sanitized) {
            let entry = try rig.refresh("stations", from: file)
            Self.expectFailed(entry, reason, after: &failures)
            #expect(entry["count"] == 143, "\(file)")
            #expect(try rig.view() == before, "what clients see changed after \(file)")
        }
        let recovered = try rig.refresh("stations", from: "good-stops.csv")
        #expect(recovered["lastError"] == .null)
        #expect(try rig.view() == before)
    }
}
