import Foundation
import Glibc
import StopSheetCore
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// The real `stopsheetd` binary over its real socket, as clients use it.
@Suite(.serialized) struct DaemonIntegrationTests {
    func expectError(_ response: JSON, _ code: Int, id: JSON? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response["error"]?["code"]?.intValue == code, "\(response.encodedString)", sourceLocation: sourceLocation)
        if let id { #expect(response["id"] == id, sourceLocation: sourceLocation) }
    }

    @Test func demoStopSheetFollowsTheSpec() throws {
        let daemon = try DaemonProcess(["--demo"])
        let sheet = try daemon.result("stopSheet", ["stopId": "40380"])
        // The capture's Clark/Lake at its moment (the demo is rebased to the start): the Blue
        // Line's and the Loop's alerts, active before planned (protocol.md shows the whole sheet).
        #expect(sheet["stationName"] == "Clark/Lake")
        #expect(sheet["alerts"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
            == ["23322", "27068", "27037", "27038", "27039", "27040", "27041", "27043"])
        #expect(sheet["alerts"]?.arrayValue?.compactMap { $0["kind"]?.stringValue } == ["active", "active"] + Array(repeating: "planned", count: 6))
        #expect(sheet["alertGlyph"]?["count"] == 8)
        #expect(sheet["alertGlyph"]?["accessibilityLabel"] == "8 train service alerts")
        #expect(sheet["alertGlyph"]?["alert"]?["message"]?.stringValue?.hasPrefix("Active train alert: UIC-Halsted Station Peoria Entrance Temporary Closure\n") == true)
        #expect(sheet["accessibilityButton"]?["tone"] == "good")
        #expect(sheet["accessibilityButton"]?["alert"]?["message"] == "Step-free access is available at Clark/Lake.")
        #expect(sheet["accessibilityButton"]?["now"]?["platforms"]?.arrayValue?.compactMap { $0["stopId"]?.stringValue } == ["30374", "30375", "30074", "30075"])
        let count = 8
        #expect(sheet["alerts"]?.arrayValue?.count == count)
        // A platform id answers for its station; an integer id is the same stop.
        #expect(try daemon.result("stopSheet", ["stopId": "30374"]).comparableSheet == sheet.comparableSheet)
        #expect(try daemon.result("stopSheet", ["stopId": 40380]).comparableSheet == sheet.comparableSheet)
        #expect(try daemon.result("alerts", ["stopId": "40380"])["count"]?.intValue == count)
        #expect(try daemon.result("alerts")["count"] == 17)
    }

    @Test func busSheetsAndUnknownStops() throws {
        let daemon = try DaemonProcess(["--demo"])
        #expect(try daemon.result("stopSheet", ["stopId": "1106", "stopType": "bus"])
            == ["stopType": "bus", "stopId": "1106", "alertGlyph": nil, "accessibilityButton": nil])
        expectError(try daemon.client().request(#"{"jsonrpc":"2.0","id":"u","method":"stopSheet","params":{"stopId":"49999"}}"#), -32001, id: "u")
        expectError(try daemon.call("station", ["stopId": "1106"]), -32001)
        expectError(try daemon.call("stopSheet", ["stopId": "40380", "stopType": "ferry"]), -32602)
        expectError(try daemon.call("stopSheet", ["stopId": "40380", "colour": "red"]), -32602)
        expectError(try daemon.call("stopSheet", [.string("40380")]), -32602)
    }

    @Test func stationDetailAndVersion() throws {
        let daemon = try DaemonProcess(["--demo"])
        let station = try daemon.result("station", ["stopId": "40380"])
        #expect(station["stationName"] == "Clark/Lake")
        #expect(station["stepFree"] == "available")
        #expect(station["routes"] == ["Blue", "Brn", "G", "Org", "Pexp", "Pink"])
        #expect(station["platforms"]?.arrayValue?.map { $0["stopId"] } == ["30374", "30375", "30074", "30075"])
        #expect(try daemon.result("version") == ["name": "stopsheetd", "version": .string(StopSheetVersion.current), "protocol": "2.5"])
        let health = try daemon.result("health")
        #expect(health["status"] == "ready")
        #expect(health["stations"]?["count"] == 143)
        #expect(health["alerts"]?["source"] == "demo:alerts")
        #expect(health["connections"]?.intValue == 1)
        for key in ["loaded", "count", "loadedAt", "lastAttemptAt", "lastError", "source", "consecutiveFailures", "nextRefreshAt"] {
            #expect(health["alerts"]?[key] != nil, "health.alerts.\(key)")
        }
    }

    /// `stations`: each station's detail without platforms, by name (the root collation: CTA's
    /// formats name no language), one per station.
    @Test func stationsListsEveryStationAsItsDetailBegins() throws {
        let daemon = try DaemonProcess(["--demo"])
        let result = try daemon.result("stations")
        let stations = try #require(result["stations"]?.arrayValue)
        #expect(result["count"]?.intValue == stations.count)
        #expect(stations.count == 143)
        let ids = stations.compactMap { $0["stationId"]?.stringValue }
        #expect(Set(ids).count == ids.count)
        let names = stations.compactMap { $0["stationName"]?.stringValue }
        #expect(names == names.sorted { $0.compare($1, options: [], range: nil, locale: Locale(identifier: "")) == .orderedAscending })
        #expect(names.first == "18th" && names.last == "Wilson", "\(names)")
        let clarkLake = try #require(stations.first { $0["stationId"] == "40380" })
        guard case .object(let detail) = try daemon.result("station", ["stopId": "40380"]) else { throw TestFailure("station is no object") }
        // The same members, in the same order, as the station's own detail begins with, the last
        // the word of its step-free verdict now.
        let summaryKeys = ["stationId", "stationName", "routes", "stepFree", "partial", "stepFreeFrom", "stepFreeNow"]
        #expect(clarkLake == .object(JSONObject(summaryKeys.map { (key: $0, value: detail[$0]!) })))
        #expect(Array(detail.keys.prefix(summaryKeys.count)) == summaryKeys)
        #expect(detail["stepFreeNow"] == detail["now"]?["stepFree"])
        expectError(try daemon.call("stations", ["stopId": "40380"]), -32602)
        let noStations = try DaemonProcess(["--demo", "--stations-url", "file:///nonexistent/stops.csv"]) { $0.contains("stations failing") }
        expectError(try noStations.call("stations"), -32005)
    }

    @Test func hostileLinesGetErrorsAndTheConnectionStaysUsable() throws {
        let daemon = try DaemonProcess(["--demo"])
        let client = try daemon.client()
        expectError(try client.request("not json"), -32700, id: .null)
        expectError(try client.request(#"{"jsonrpc":"2.0","id":5}"#), -32600, id: 5)
        expectError(try client.request(#"{"jsonrpc":"1.0","id":6,"method":"health"}"#), -32600)
        expectError(try client.request(#"{"jsonrpc":"2.0","id":7,"method":"launch"}"#), -32601, id: 7)
        expectError(try client.request(#"{"jsonrpc":"2.0","id":8,"method":"stopSheet","params":{"stopId":true}}"#), -32602, id: 8)
        expectError(try client.request(#"{"jsonrpc":"2.0","id":9,"method":"stopSheet"}"#), -32602, id: 9)
        #expect(client.send(Array(#"{"jsonrpc":"2.0","id":10,"method":"st"#.utf8) + [0xFF, 0xFE] + Array("\"}\n".utf8)))
        expectError(try #require(client.readLine().map { try JSONParser.parse($0) }), -32700, id: .null)
        expectError(try client.request(String(repeating: "[", count: 100_000)), -32700, id: .null)
        let huge = #"{"jsonrpc":"2.0","id":11,"method":"health","params":{"pad":""# + String(repeating: "x", count: 2 << 20) + #""}}"#
        expectError(try client.request(huge), -32003, id: .null)
        // A notification is not answered: the next answer is the next request's.
        #expect(client.send(line: #"{"jsonrpc":"2.0","method":"health"}"#))
        #expect(try client.request(#"{"jsonrpc":"2.0","id":12,"method":"version"}"#)["id"] == 12)
        let batch = try client.request(#"[{"jsonrpc":"2.0","id":13,"method":"version"},{"jsonrpc":"2.0","method":"version"},{"jsonrpc":"2.0","id":14}]"#)
        #expect(batch.arrayValue?.map { $0["id"] } == [13, 14])
        expectError(try client.request("[]"), -32600, id: .null)
        #expect(try client.request(#"{"jsonrpc":"2.0","id":"last","method":"stopSheet","params":{"stopId":"40380"}}"#)["result"]?["stationId"] == "40380")
    }

    @Test func aClientVanishingMidAnswerHurtsNoOne() throws {
        let daemon = try DaemonProcess(["--demo"])
        for _ in 0..<5 {
            let client = try daemon.client()
            let request = #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"}}"# + "\n"
            client.send(Array(String(repeating: request, count: 2000).utf8))
            client.close()
        }
        #expect(try daemon.result("version")["name"] == "stopsheetd")
        #expect(daemon.process.isRunning)
    }

    @Test func sixtyFourConcurrentClientsAllGetTheirAnswers() throws {
        let daemon = try DaemonProcess(["--demo"])
        // Without the ages: the rounds take seconds.
        let expected = try daemon.result("stopSheet", ["stopId": "40380"]).comparableSheet
        // Unchecked: each client is used by exactly one thread.
        final class Connection: @unchecked Sendable {
            let client: TestClient
            init(_ client: TestClient) { self.client = client }
        }
        let clients = try (0..<64).map { _ in Connection(try daemon.client()) }
        let wrong = Locked<[String]>([])
        let group = DispatchGroup()
        for (index, connection) in clients.enumerated() {
            group.enter()
            Thread.detachNewThread {
                let client = connection.client
                defer { group.leave() }
                for round in 0..<40 {
                    let stop = round % 2 == 0 ? "40380" : "30374"
                    let answer = try? client.request(#"{"jsonrpc":"2.0","id":"\#(index)-\#(round)","method":"stopSheet","params":{"stopId":"\#(stop)"}}"#)
                    if answer?["id"] != .string("\(index)-\(round)") || answer?["result"]?.comparableSheet != expected {
                        wrong.withLock { $0.append("client \(index) round \(round)") }
                        return
                    }
                }
            }
        }
        #expect(group.wait(timeout: .now() + 120) == .success)
        #expect(wrong.withLock { $0.isEmpty }, "\(wrong.withLock { $0.prefix(5) })")
        #expect(try daemon.result("health")["connections"]?.intValue == 65)
    }

    @Test func socatQueriesItAsADevBoxWould() throws {
        let daemon = try DaemonProcess(["--demo"])
        let socat = try runProcess("/usr/bin/env", ["socat", "-", "UNIX-CONNECT:\(daemon.socketPath)"],
                                   input: #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"}}"# + "\n")
        #expect(socat.status == 0, "is socat installed? (scripts/install-deps.sh) \(socat.stderr)")
        let response = try JSONParser.parse(socat.stdout.trimmingCharacters(in: .newlines))
        #expect(response["result"]?["stationName"] == "Clark/Lake")
        #expect(response["result"]?.comparableSheet == (try daemon.result("stopSheet", ["stopId": "40380"])).comparableSheet)
    }

    @Test func fileSourcesAndTheSheetBeforeStationsLoad() throws {
        let alerts = "file://\(Fixtures.directory)/alerts_2015-02-14.DERIVED.json"
        let missing = "file://\(Fixtures.directory)/no-such-stops.csv"
        let daemon = try DaemonProcess(["--alerts-url", alerts, "--stations-url", missing]) {
            $0.contains("train alerts") && !$0.contains("no train alerts") && $0.contains("stations failing")
        }
        let health = try daemon.result("health")
        #expect(health["stations"]?["loaded"] == false)
        #expect(health["stations"]?["lastError"]?.stringValue?.contains("no-such-stops.csv") == true)
        #expect(health["alerts"]?["loaded"] == true)
        #expect(try daemon.result("health")["status"] == "unavailable", "stations never loaded and failing")
        let sheet = try daemon.result("stopSheet", ["stopId": "40380", "stationName": "Clark/Lake"])
        #expect(sheet["data"]?["stations"]?["loaded"] == false)
        #expect(sheet["data"]?["alerts"]?["loaded"] == true)
        #expect(sheet["alertGlyph"] == .null)
        #expect(sheet["stationName"] == "Clark/Lake")
        #expect(sheet["accessibilityButton"]?["tone"] == "muted")
        #expect(sheet["accessibilityButton"]?["alert"]?["message"] == "Accessibility information is currently unavailable for Clark/Lake.")
        #expect(try daemon.result("stopSheet", ["stopId": "40380"])["stationName"] == "40380")
        expectError(try daemon.call("station", ["stopId": "40380"]), -32005)
    }

    /// systemd's queue for a service can fill (`net.unix.max_dgram_qlen` may be 10): status and
    /// watchdog datagrams are then dropped, never allowed to block serving or refreshing.
    @Test func aFullNotifyQueueBlocksNothing() throws {
        let daemon = try DaemonProcess(["--demo", "--stations-url", "file:///nonexistent/stops.csv"], environment: ["WATCHDOG_USEC": "400000"]) {
            $0.contains("stations failing")
        }
        daemon.notifications.pause()
        #expect(daemon.notifications.fillQueue() > 0)
        for round in 1...3 {
            // Each failed refresh changes STATUS= ("… failing (N in a row) …"), so each tries to send.
            let status = try daemon.result("refresh", ["what": "stations"])["stations"]
            #expect(status?["consecutiveFailures"]?.intValue ?? 0 > round)
        }
        let client = try daemon.client()
        for id in 0..<50 {
            #expect(try client.request(#"{"jsonrpc":"2.0","id":\#(id),"method":"stopSheet","params":{"stopId":"40380","stationName":"Clark/Lake"}}"#)["id"] == .number(String(id)))
        }
    }

    @Test func realFilesLoadThroughFileURLs() throws {
        let daemon = try DaemonProcess(["--alerts-url", "file://\(Fixtures.directory)/alerts_2015-02-14.DERIVED.json",
                                        "--stations-url", "file://\(Fixtures.directory)/L_stops_2021.csv"])
        let health = try daemon.result("health")
        #expect(health["stations"]?["count"] == 143)
        // The capture is from 2015: every alert with an end has ended; the 'TBD' ones remain.
        let alerts = try daemon.result("alerts")
        #expect(alerts["count"]?.intValue == alerts["alerts"]?.arrayValue?.count)
        #expect(alerts["alerts"]?.arrayValue?.allSatisfy { $0["end"] == .null && $0["kind"] == "active" } == true)
    }

    @Test func commandLine() throws {
        func run(_ arguments: [String]) throws -> (Int32, String, String) {
            let result = try runProcess(DaemonProcess.binary, arguments)
            return (result.status, result.stdout, result.stderr)
        }
        let help = try run(["--help"])
        #expect(help.0 == 0 && help.1.contains("--alerts-url") && help.1.contains("STOPSHEETD_SOCKET"))
        #expect(try run(["--version"]).1 == "stopsheetd \(StopSheetVersion.current) (commit \(StopSheetVersion.commit))\n")
        let unknown = try run(["--demo", "--frobnicate"])
        #expect(unknown.0 == 2 && unknown.2 == "stopsheetd: unknown option '--frobnicate' (see --help)\n")
        let bad = try run(["--demo", "--alerts-interval", "soon"])
        #expect(bad.0 == 2 && bad.2.split(separator: "\n").count == 1)
        let scheme = try run(["--demo", "--alerts-url", "gopher://x", "--socket", "/tmp/stopsheetd-test-unused.sock"])
        #expect(scheme.0 != 0 && scheme.2.contains("gopher"))
    }

    @Test func theSocketFile() throws {
        let daemon = try DaemonProcess(["--demo"])
        var info = stat()
        #expect(stat(daemon.socketPath, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o660)
        // Something answers on the path: a second daemon refuses it and leaves it alone.
        let second = try DaemonProcess(["--demo", "--socket", daemon.socketPath], waitForReady: false)
        #expect(second.process.wait() == 1)
        #expect(try daemon.result("version")["name"] == "stopsheetd")
        // Stopped cleanly, the daemon exits 0 and removes its socket.
        #expect(daemon.stop() == 0)
        #expect(access(daemon.socketPath, F_OK) != 0)
    }

    @Test func aStaleSocketIsReplacedButOtherFilesAreNot() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let stale = directory + "/stale.sock"
        close(try boundUnixSocket(at: stale))
        let daemon = try DaemonProcess(["--demo", "--socket", stale])
        #expect(try TestClient(path: stale).request(#"{"jsonrpc":"2.0","id":1,"method":"version"}"#)["result"] != nil)
        daemon.stop()
        let regular = directory + "/regular"
        FileManager.default.createFile(atPath: regular, contents: Data("keep me".utf8))
        let refused = try DaemonProcess(["--demo", "--socket", regular], waitForReady: false)
        #expect(refused.process.wait() == 1)
        #expect(FileManager.default.contents(atPath: regular) == Data("keep me".utf8))
    }

    @Test func refreshIsForRootAndTheDaemonsOwnUser() throws {
        let daemon = try DaemonProcess(["--demo"])
        let refreshed = try daemon.result("refresh", ["what": "alerts"])
        #expect(refreshed["alerts"]?["loaded"] == true)
        #expect(refreshed["stations"] == nil)
        expectError(try daemon.call("refresh", ["what": "everything"]), -32602)
        guard getuid() == 0 else { return }
        // Another user: let it reach the socket and a copy of the client, then ask as `nobody`.
        // The copy: the build folder may sit in a directory other users cannot enter (a clone
        // under /root), and then `nobody` could not run the client where it was built.
        chmod(daemon.directory, 0o755)
        chmod(daemon.socketPath, 0o666)
        let ctl = daemon.directory + "/stopsheetctl"
        try FileManager.default.copyItem(atPath: DaemonProcess.ctlBinary, toPath: ctl)
        chmod(ctl, 0o755)
        let refused = try runProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", ctl,
                                                          "--socket", daemon.socketPath, "--json", "refresh"])
        #expect(refused.status == 1)
        // stopsheetctl --json prints the error object itself (StopSheetCtlIntegrationTests).
        #expect(try JSONParser.parse(refused.stdout.trimmingCharacters(in: .newlines))["code"] == -32002)
    }
}
