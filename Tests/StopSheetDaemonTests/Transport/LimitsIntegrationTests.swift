import Foundation
import Glibc
import StopSheetCore
import Testing

/// Each server limit of protocol.md, set by its flag on the real `stopsheetd` binary and hit over
/// the real socket. ServerTests covers the same rules against the in-process server; these make
/// sure the flags reach it and the binary behaves as documented.
@Suite(.serialized) struct LimitsIntegrationTests {
    static let version = #"{"jsonrpc":"2.0","id":1,"method":"version"}"#

    func expectError(_ response: JSON, _ code: Int, id: JSON? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response["error"]?["code"]?.intValue == code, "\(response.encodedString)", sourceLocation: sourceLocation)
        if let id { #expect(response["id"] == id, sourceLocation: sourceLocation) }
    }

    /// The daemon's own count of open connections, asked on a connection of its own (counted too).
    func connections(_ daemon: DaemonProcess) throws -> Int {
        try daemon.result("health")["connections"]?.intValue ?? -1
    }

    @Test func theConnectionOverTheLimitGetsOneBusyLineAndIsClosed() throws {
        let daemon = try DaemonProcess(["--demo", "--max-connections", "3"])
        let clients = try (0..<3).map { _ in try daemon.client() }
        for client in clients {
            #expect(try client.request(Self.version)["result"] != nil)
        }
        let fourth = try daemon.client()
        let busy = try JSONParser.parse(try #require(fourth.readLine()))
        #expect(busy == ["jsonrpc": "2.0", "id": nil, "error": ["code": -32004, "message": "Server busy", "data": "too many connections"]])
        #expect(fourth.waitForClose())
        // The ones already in are unaffected, and a freed slot is usable again.
        #expect(try clients[1].request(Self.version)["result"] != nil)
        // Ended, and closed by the daemon, which counts a close before it closes: the slot is free.
        clients[0].shutdownWrite()
        #expect(clients[0].waitForClose())
        #expect(try TestClient(path: daemon.socketPath).request(Self.version)["result"] != nil)
    }

    @Test func aClientThatNeverReadsIsPausedThenClosedWhileOthersAreServed() throws {
        let daemon = try DaemonProcess(["--demo", "--max-output-bytes", "65536", "--stuck-timeout", "1"])
        let expected = try daemon.result("stopSheet", ["stopId": "40380"]).comparableSheet
        let stuck = try daemon.client()
        let other = try daemon.client()
        let request = #"{"jsonrpc":"2.0","id":1,"method":"alerts"}"# + "\n"
        // ~30 MB of answers asked for; the client reads none. Without back-pressure the daemon
        // would buffer them all; with it, it stops reading once 64 KiB are unsent.
        let flood = Array(String(repeating: request, count: 2000).utf8)
        var offered = 0
        for round in 0..<50 {
            offered += stuck.sendAvailable(flood)
            // Meanwhile everyone else is answered, and answered right. Each answer is also a
            // round of the daemon's loop that had `stuck`'s bytes ready to read, had it wanted
            // them: the answer, not a sleep, is what gives it the chance.
            let answer = try other.request(#"{"jsonrpc":"2.0","id":\#(round),"method":"stopSheet","params":{"stopId":"40380"}}"#)
            #expect(answer["result"]?.comparableSheet == expected)
        }
        #expect(offered < 2000 * 10 * request.utf8.count, "the daemon kept reading: \(offered) bytes taken")
        // Its RSS meanwhile is a figure of `make bench` (scripts/bench_timeouts.py), not a bound here.

        // Closed after the stuck timeout (1 s, checked on the 1 s tick), the close seen with the
        // answers unread: only `other` and the health caller remain.
        #expect(stuck.waitForPeerClose(timeout: patience))
        #expect(try connections(daemon) == 2)
        #expect(stuck.waitForClose())
        #expect(try other.request(Self.version)["result"] != nil)
    }

    @Test func idleConnectionsAreClosedOnlyWhenTheFlagSaysSo() throws {
        let daemon = try DaemonProcess(["--demo", "--idle-timeout", "1"])
        // A client that keeps talking stays, however long it has been connected: `chatty`
        // connects first and talks on until `idle`, younger and silent, is closed.
        let chatty = try daemon.client()
        let idle = try daemon.client()
        #expect(try idle.request(Self.version)["result"] != nil)
        let started = Date()
        var idleClosed = false
        while !idleClosed, Date().timeIntervalSince(started) < patience {
            #expect(try chatty.request(Self.version)["result"] != nil)
            // Up to 300 ms (chatty's pace, well inside the timeout) waiting for idle's close.
            idleClosed = idle.waitForPeerClose(timeout: 0.3)
        }
        #expect(idleClosed && idle.waitForClose(timeout: patience))
        let waited = Date().timeIntervalSince(started)
        // Not before its time; how soon after is a figure of `make bench` (scripts/bench_timeouts.py).
        #expect(waited >= 0.5, "closed after \(waited) s")
        #expect(try chatty.request(Self.version)["result"] != nil, "chatty, connected longer than idle was silent, was closed")

        // Without the flag (the default, 0) nobody is closed for being quiet: not in six
        // watchdog pings (each at least 475 ms after the last: over 2 s of the loop's ticks,
        // every one of them checking the timeouts).
        let patient = try DaemonProcess(["--demo"], environment: ["WATCHDOG_USEC": "1000000"])
        let quiet = try patient.client()
        #expect(try quiet.request(Self.version)["result"] != nil)
        #expect(patient.waitForWatchdogPings(6))
        #expect(try quiet.request(Self.version)["result"] != nil)
    }

    @Test func batchesOverTheLimitGetOneError() throws {
        let daemon = try DaemonProcess(["--demo", "--max-batch", "4"])
        let client = try daemon.client()
        func batch(_ count: Int) -> String {
            "[" + (0..<count).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"version"}"# }.joined(separator: ",") + "]"
        }
        #expect(try client.request(batch(4)).arrayValue?.map { $0["id"] } == [0, 1, 2, 3])
        let over = try client.request(batch(5))
        expectError(over, -32600, id: .null)
        #expect(over["error"]?["data"]?.stringValue?.contains("limit of 4") == true)
        #expect(try client.request(Self.version)["id"] == 1)

        // The default is 64.
        let defaults = try DaemonProcess(["--demo"])
        let other = try defaults.client()
        #expect(try other.request(batch(64)).arrayValue?.count == 64)
        expectError(try other.request(batch(65)), -32600, id: .null)
    }

    @Test func nestingDeeperThanTheLimitIsAParseError() throws {
        let daemon = try DaemonProcess(["--demo", "--max-depth", "8"])
        let client = try daemon.client()
        // The request object is level 1 and params level 2: 6 more arrays make exactly 8.
        func request(arrays: Int) -> String {
            #"{"jsonrpc":"2.0","id":7,"method":"version","params":{"x":"# + String(repeating: "[", count: arrays)
                + String(repeating: "]", count: arrays) + "}}"
        }
        // At the limit the request is read: the method then refuses the unexpected param.
        expectError(try client.request(request(arrays: 6)), -32602, id: 7)
        let deep = try client.request(request(arrays: 7))
        expectError(deep, -32700, id: .null)
        #expect(deep["error"]?["data"]?.stringValue?.contains("8") == true)
        #expect(try client.request(Self.version)["id"] == 1)
    }

    @Test func linesOverTheFlagsLimitAreRefusedAndSkipped() throws {
        let daemon = try DaemonProcess(["--demo", "--max-line-bytes", "1024"])
        let client = try daemon.client()
        let padded = #"{"jsonrpc":"2.0","id":2,"method":"version","params":{"pad":""# + String(repeating: "x", count: 2000) + #""}}"#
        let refused = try client.request(padded)
        expectError(refused, -32003, id: .null)
        #expect(refused["error"]?["data"]?.stringValue?.contains("1024") == true)
        #expect(try client.request(Self.version)["id"] == 1)
        // Just under the limit is an ordinary request.
        let fits = #"{"jsonrpc":"2.0","id":3,"method":"version","params":{"pad":""# + String(repeating: "x", count: 900) + #""}}"#
        expectError(try client.request(fits), -32602, id: 3)
    }

    @Test func badLimitFlagsAreOneLineErrors() throws {
        for (flag, value) in [("--max-connections", "0"), ("--max-batch", "-1"), ("--max-depth", "deep"),
                              ("--max-line-bytes", "10"), ("--max-output-bytes", "1"), ("--idle-timeout", "-1"),
                              ("--stuck-timeout", "0")] {
            let result = try runProcess(DaemonProcess.binary, ["--demo", "--socket", "/nonexistent/unused.sock", flag, value])
            let text = result.stderr
            #expect(result.status == 2, "\(flag) \(value)")
            #expect(text.hasPrefix("stopsheetd: \(flag)") && text.split(separator: "\n").count == 1, "\(text)")
        }
    }
}

/// VmRSS of a process in kB (0 when unreadable).
func residentKilobytes(_ pid: Int32) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return 0
}
