import Foundation
import Glibc
import StopSheetCore
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// Issue 43 through the real daemon, libcurl and the local upstream: a key in a request header
/// from an owner-only headers file, kept out of every place the daemon writes; `401`/`403`; and
/// `Retry-After` on `429`/`503`, held by the refresher and shown in `health`.
@Suite(.serialized) struct KeyedUpstreamIntegrationTests {
    let upstream: Upstream
    let stopsFile = "file://\(Fixtures.directory)/L_stops_2021.csv"
    static let goodAlerts = try! String(contentsOfFile: Fixtures.path("upstream/alerts.json"), encoding: .utf8)
    /// A real secret's shape (a DB API Marketplace key is 32 hex digits), unique per run, so
    /// finding it anywhere can only mean it leaked there.
    let secret = (0..<4).map { _ in String(UInt32.random(in: 0...UInt32.max), radix: 16) }.joined() + "f00dfeed"

    init() throws { upstream = try Upstream.shared() }

    func key(_ name: String = #function) -> String { "\(name.prefix { $0 != "(" })-\(getpid())-\(UInt32.random(in: 0...UInt32.max))" }

    /// A headers file in a fresh directory, with `mode`.
    func headersFile(_ text: String, mode: mode_t = 0o600) throws -> String {
        let path = try makeTemporaryDirectory() + "/alerts-headers"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, mode)
        return path
    }

    func refresh(_ daemon: DaemonProcess, _ what: String) throws -> JSON {
        try #require(try daemon.result("refresh", ["what": .string(what)])[what])
    }

    /// Seconds since 1970 of an ISO 8601 time with its offset.
    static func instant(_ text: String) -> Int64? {
        guard let (wall, offset) = ISO8601Time.parse(text), let offset else { return nil }
        return wall.secondsSince1970 - Int64(offset)
    }

    func commandLine(_ pid: Int32) -> String {
        String(decoding: FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data(), as: UTF8.self)
    }

    /// The daemon sends the file's headers; the key is in no answer, no log line (any field, at
    /// debug level), no STATUS=, no command line, no stopsheetctl output and no error text, while
    /// the header names are in the log. A wrong key is "refused the credentials", keeping the data.
    @Test func aKeyInAHeaderReachesTheUpstreamAndNothingElse() throws {
        let key = key()
        try upstream.set(key: key, body: Self.goodAlerts, requireHeaders: ["DB-Api-Key": secret, "DB-Client-Id": "client-7"])
        let path = try headersFile("# DB API Marketplace\nDB-Client-Id: client-7\n\nDB-Api-Key: \(secret)\n")
        let daemon = try DaemonProcess(["--alerts-url", upstream.url("/dyn/\(key)"), "--stations-url", stopsFile,
                                        "--alerts-headers-file", path, "--log-level", "debug"])
        let loaded = try daemon.result("health")["alerts"]!
        #expect(loaded["loaded"] == true && loaded["lastHTTPStatus"] == 200, "\(loaded.encodedString)")
        #expect(daemon.stderrText().contains("alerts: 2 headers from alerts-headers (DB-Client-Id, DB-Api-Key)"))

        // The upstream now wants another key: refused, named so, last good data kept.
        try upstream.set(key: key, body: Self.goodAlerts, requireHeaders: ["DB-Api-Key": "another-key"])
        let refused = try refresh(daemon, "alerts")
        #expect(refused["lastError"] == "the upstream refused the credentials (HTTP 401)", "\(refused.encodedString)")
        #expect(refused["loaded"] == true && refused["count"] == loaded["count"])
        #expect(refused["consecutiveFailures"] == 1)

        var seen: [(String, String)] = [
            ("health", try daemon.result("health").encodedString), ("stats", try daemon.result("stats").encodedString),
            ("journal (stderr)", daemon.stderrText()), ("STATUS=", daemon.notifications.received.joined(separator: "\n")),
            ("command line", commandLine(daemon.pid)),
        ]
        for command in [["health"], ["stats"], ["--json", "health"], ["refresh", "alerts"]] {
            let shown = try runProcess(DaemonProcess.ctlBinary, ["--socket", daemon.socketPath] + command)
            seen.append(("stopsheetctl \(command)", shown.stdout + shown.stderr))
        }
        #expect(seen.contains { $0.1.contains("refused the credentials") }, "the check looks where the failure is shown")
        for (place, text) in seen {
            #expect(!text.contains(secret), "the key appears in \(place)")
        }
        let checked = try runProcess(DaemonProcess.binary, ["--check-config", "--demo", "--alerts-headers-file", path])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(!(checked.stdout + checked.stderr).contains(secret))
    }

    /// As ssh refuses a private key: a file group or others may read is refused at start and by
    /// `--check-config`, in the same words; so is a directory; a malformed line is named by its
    /// number, and the secret on the line is not quoted.
    @Test func aReadableOrMalformedHeadersFileIsRefused() throws {
        let readable = try headersFile("Authorization: apikey \(secret)\n", mode: 0o644)
        let notRegular = try makeTemporaryDirectory()
        let malformed = try headersFile("Ocp-Apim-Subscription-Key: \(secret)\nBad Name: \(secret)\n")
        let noColon = try headersFile("# PRIM\napikey \(secret)\n")
        let cases: [(String, String)] = [
            (readable, "\(readable) is accessible by group or others (mode 644)"),
            (notRegular, "cannot read \(notRegular): Is a directory"),
            (malformed, "\(malformed):2: the header name is not an RFC 9110 token"),
            (noColon, "\(noColon):2: not a header line (expected Name: value)"),
        ]
        for (path, words) in cases {
            let started = try runProcess(DaemonProcess.binary, ["--demo", "--alerts-url", upstream.url("/dyn/unused"), "--alerts-headers-file", path,
                                                                "--socket", try makeTemporaryDirectory() + "/s.sock"])
            #expect(started.status == 1)
            #expect(started.stderr.contains("cannot start: --alerts-headers-file: \(words)"), "\(started.stderr)")
            let checked = try runProcess(DaemonProcess.binary, ["--check-config", "--demo", "--stations-headers-file", path])
            #expect(checked.status == 1)
            #expect(checked.stderr.contains("--stations-headers-file: \(words)"), "\(checked.stderr)")
            #expect(!(started.stderr + checked.stderr).contains(secret))
        }
    }

    /// SIGHUP re-reads the headers file: a rotated key is a reload away.
    @Test func aReloadReadsTheHeadersFileAgain() throws {
        let key = key()
        try upstream.set(key: key, body: Self.goodAlerts, requireHeaders: ["Authorization": "Bearer \(secret)"])
        let path = try headersFile("Authorization: Bearer old-\(secret)\n")
        let config = try makeTemporaryDirectory() + "/stopsheetd.conf"
        try "STOPSHEETD_ALERTS_HEADERS_FILE=\(path)\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--alerts-url", upstream.url("/dyn/\(key)"), "--stations-url", stopsFile, "--config", config],
                                       until: { $0.contains("stations") })
        let before = try daemon.result("health")["alerts"]!
        #expect(before["lastError"] == "the upstream refused the credentials (HTTP 401)" && before["loaded"] == false)
        try "Authorization: Bearer \(secret)\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        daemon.notifications.skipReceived()
        kill(daemon.pid, SIGHUP)
        #expect(daemon.notifications.waitFor({ $0.contains("READY=1") }, timeout: patience) != nil)
        let after = try daemon.result("health")["alerts"]!
        #expect(after["loaded"] == true && after["lastError"] == .null, "\(after.encodedString)")
    }

    /// `429` with `Retry-After: 3600`: the next attempt is an hour away and `health` says when; a
    /// `refresh` inside the hour is answered at once with that time, and the upstream sees no
    /// request for it; the journal says `RETRY_AFTER=3600`.
    @Test func retryAfterHoldsTheNextAttemptBack() throws {
        let key = key()
        try upstream.set(key: key, body: Self.goodAlerts)
        let daemon = try DaemonProcess(["--alerts-url", upstream.url("/dyn/\(key)"), "--stations-url", stopsFile, "--alerts-interval", "1",
                                        "--refresh-spacing", "0"])
        // Counted first: the 1 s interval's own round may be the one that meets the 429.
        let hitsBefore = try upstream.hits(key: key)
        try upstream.set(key: key, status: 429, body: "slow down", headers: ["Retry-After": "3600"])
        let limited = try refresh(daemon, "alerts")
        #expect(limited["lastError"] == "HTTP 429 Too Many Requests, retry after 3600 s", "\(limited.encodedString)")
        #expect(limited["lastHTTPStatus"] == 429 && limited["loaded"] == true)
        let attempted = try #require(limited["lastAttemptAt"]?.stringValue.flatMap(Self.instant))
        let next = try #require(limited["nextRefreshAt"]?.stringValue.flatMap(Self.instant))
        #expect(next - attempted >= 3600)
        #expect(next - attempted <= 3600 + 60)
        let hitsAfterLimit = try upstream.hits(key: key)
        #expect(hitsAfterLimit > hitsBefore)

        // Inside the window: answered with the same status, fetching nothing.
        try upstream.set(key: key, body: Self.goodAlerts)
        for _ in 0..<3 {
            let held = try refresh(daemon, "alerts")
            #expect(held["nextRefreshAt"] == limited["nextRefreshAt"] && held["lastError"] == limited["lastError"])
        }
        #expect(try upstream.hits(key: key) == hitsAfterLimit, "a refresh inside Retry-After reached the upstream")
        #expect(daemon.waitForLog { $0.contains("RETRY_AFTER=3600") } != nil)
    }

    /// The inventory URL's Retry-After holds its own fetches back: the statuses are still read,
    /// against the inventory in force, and the inventory is not asked again inside the window.
    @Test func theInventoryURLsRetryAfterIsHeldToo() throws {
        let statusKey = key(), inventoryKey = key()
        try upstream.set(key: statusKey, body: try FacilitiesIntegrationTests.fixture("nyct_ene.HANDMADE.json"))
        try upstream.set(key: inventoryKey, body: try FacilitiesIntegrationTests.fixture("nyct_ene_equipments.HANDMADE.json"))
        let daemon = try DaemonProcess(["--stations-url", FacilitiesIntegrationTests.stations, "--facilities-url", upstream.url("/dyn/\(statusKey)"),
                                        "--facilities-inventory-url", upstream.url("/dyn/\(inventoryKey)"), "--refresh-spacing", "0",
                                        "--now", "2026-09-17T12:00:00-04:00"],
                                       until: FacilitiesIntegrationTests.loaded)
        _ = try refresh(daemon, "facilities")
        try upstream.set(key: inventoryKey, status: 503, headers: ["Retry-After": "600"])
        _ = try refresh(daemon, "facilities")
        #expect(daemon.waitForLog { $0.contains("keeping the last good inventory") && $0.contains("RETRY_AFTER=600") } != nil)
        let inventoryHits = try upstream.hits(key: inventoryKey), statusHits = try upstream.hits(key: statusKey)
        let again = try refresh(daemon, "facilities")
        #expect(again["lastError"] == .null, "\(again.encodedString)")
        #expect(try upstream.hits(key: statusKey) == statusHits + 1)
        #expect(try upstream.hits(key: inventoryKey) == inventoryHits, "the inventory was asked inside its Retry-After")
    }
}
