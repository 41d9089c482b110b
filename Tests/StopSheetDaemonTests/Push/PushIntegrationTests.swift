import Foundation
import Glibc
import StopSheetClient
import StopSheetCore
import Testing
@testable import StopSheetDaemon

/// Push (issue 11) through the real binary: `subscribe`, `stopSheetChanged` / `healthChanged`,
/// coalescing for a client that does not read, the limits, `unsubscribe`, and `stopsheetctl
/// watch`. "No notification" is asserted by order, not by waiting: a request sent after the
/// change is answered after every notification the change caused (`exchange`).
@Suite(.serialized) struct PushIntegrationTests {
    let upstream: Upstream
    let stopsFile = "file://\(Fixtures.directory)/L_stops_2021.csv"
    static let allStops = try! String(contentsOfFile: Fixtures.path("L_stops_2021.csv"), encoding: .utf8)

    init() throws { upstream = try Upstream.shared() }

    func key(_ name: String = #function) -> String { "\(name.prefix { $0 != "(" })-\(getpid())-\(UInt32.random(in: 0...UInt32.max))" }

    /// An app-format alerts document; each alert is (id, headline, scopes as JSON).
    static func alerts(_ alerts: [(id: String, headline: String, scopes: String)], description: String = "") -> String {
        let items = alerts.map { #"{"id":"\#($0.id)","status":"active","headline":"\#($0.headline)","description":"\#(description)","scopes":\#($0.scopes)}"# }
        return #"{"alerts":["# + items.joined(separator: ",") + "]}"
    }

    static let blueLine = (id: "1", headline: "Blue Line delays", scopes: #"[{"type":"route","id":"Blue"}]"#)
    static let at69th = (id: "2", headline: "Elevator at 69th out of service", scopes: #"[{"type":"station","id":"40990"}]"#)

    /// Sends a request line, then reads until its answer: the notifications that came before it.
    func exchange(_ client: TestClient, _ line: String) throws -> (notifications: [JSON], answer: JSON) {
        guard client.send(line: line) else { throw TestFailure("send failed") }
        var notifications: [JSON] = []
        while true {
            guard let text = client.readLine(timeout: patience) else { throw TestFailure("no answer to \(line)") }
            let message = try JSONParser.parse(text)
            if message["id"] != nil { return (notifications, message) }
            notifications.append(message)
        }
    }

    func notificationsBefore(_ client: TestClient) throws -> [JSON] {
        try exchange(client, #"{"jsonrpc":"2.0","id":"probe","method":"version"}"#).notifications
    }

    func subscribe(_ client: TestClient, _ params: String) throws -> JSON {
        let (early, answer) = try exchange(client, #"{"jsonrpc":"2.0","id":"sub","method":"subscribe","params":\#(params)}"#)
        #expect(early.isEmpty, "nothing before the subscribe reply")
        return answer
    }

    @Test func anAlertAddedUpstreamNotifiesExactlyTheStationsItAppliesTo() throws {
        let key = key()
        try upstream.set(key: key, body: Self.alerts([Self.blueLine]), etag: false)
        let daemon = try DaemonProcess(["--alerts-url", upstream.url("/dyn/\(key)"), "--stations-url", stopsFile])
        let watcher = try daemon.client(), other = try daemon.client()
        let reply = try subscribe(watcher, #"{"stopIds":["40380","40990",41450]}"#)
        let id = try #require(reply["result"]?["subscription"]?.stringValue)
        #expect(reply["result"]?["sheets"]?["40380"]?["alertGlyph"]?["count"] == 1, "the Blue Line alert at Clark/Lake")
        #expect(reply["result"]?["sheets"]?["40990"]?["alertGlyph"] == .null)
        #expect(reply["result"]?["sheets"]?["41450"] != nil, "an integer id is answered under its decimal text")
        _ = try subscribe(other, #"{"stopIds":["40900"]}"#)

        try upstream.set(key: key, body: Self.alerts([Self.blueLine, Self.at69th]), etag: false)
        try daemon.refreshAll()
        let seen = try notificationsBefore(watcher)
        #expect(seen.count == 1, "\(seen.map(\.encodedString))")
        let params = try #require(seen.first?["params"])
        #expect(seen.first?["method"] == "stopSheetChanged" && seen.first?["id"] == nil)
        #expect(params["subscription"]?.stringValue == id && params["seq"] == 1 && params["stopId"] == "40990")
        #expect(params["sheet"]?["alertGlyph"]?["count"] == 1)
        #expect(params["sheet"]?.comparableSheet == (try daemon.result("stopSheet", ["stopId": "40990"])).comparableSheet,
                "what stopSheet answers, but for the age in data")
        #expect(try notificationsBefore(other).isEmpty, "Howard is not on the Red Line's 69th alert")

        // The same body again, installed again (no ETag, so no 304): the answers' bytes are the same.
        try daemon.refreshAll()
        #expect(try notificationsBefore(watcher).isEmpty)
        #expect(try notificationsBefore(other).isEmpty)
        #expect(try daemon.result("stats")["notificationsSent"] == 1, "the one notification, to the one client it concerned")
    }

    @Test func anAlertTurnsActiveAndEndsWithNoRefreshInBetween() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/alerts.json"
        // The clock is pinned (`--now`): both alerts are written before the start, in its time, and
        // "soon" is far enough ahead that the subscribe below comes before it, even under a
        // sanitizer on a loaded machine.
        let now = TestZones.chicago.instant(.init(year: 2026, month: 1, day: 1, hour: 12))
        let start = now.adding(seconds: 5)
        let always = ClockRuleIntegrationTests.ctaAlert("1", "Always", start: now.adding(seconds: -3600), end: nil, service: #"{"ServiceType":"X","ServiceId":"Systemwide"}"#)
        let soon = ClockRuleIntegrationTests.ctaAlert("2", "Soon", start: start, end: start.adding(seconds: 2), service: #"{"ServiceType":"T","ServiceId":"40380"}"#)
        try ClockRuleIntegrationTests.document([always, soon]).write(toFile: file, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--alerts-url", "file://\(file)", "--stations-url", stopsFile, "--now", TestZones.chicago.iso8601(now)])

        let watcher = try daemon.client()
        let reply = try subscribe(watcher, #"{"stopIds":["40380","40040"]}"#)
        let kinds = { (sheet: JSON?) in sheet?["alerts"]?.arrayValue?.compactMap { $0["kind"]?.stringValue } ?? [] }
        #expect(kinds(reply["result"]?["sheets"]?["40380"]) == ["active", "planned"])

        for expected in [["active", "active"], ["active"]] {
            let line = try #require(watcher.readLine(timeout: patience), "the clock's change arrives on its own")
            let params = try JSONParser.parse(line)["params"]
            #expect(params?["stopId"] == "40380")
            #expect(kinds(params?["sheet"]) == expected)
        }
        #expect(try notificationsBefore(watcher).isEmpty, "Quincy's sheet never changed")
        #expect(try daemon.result("health")["alerts"]?["lastAttemptAt"] != nil)
    }

    @Test func aStationRefreshThatChangesStepFreeAccessNotifies() throws {
        let key = key()
        try upstream.set(key: key, body: Self.allStops)
        let daemon = try DaemonProcess(["--demo", "--stations-url", upstream.url("/dyn/\(key)")])
        let watcher = try daemon.client()
        let reply = try subscribe(watcher, #"{"stopIds":["30374","40990"]}"#)
        #expect(reply["result"]?["sheets"]?["30374"]?["accessibilityButton"]?["tone"] == "good", "a platform id answers for its station")

        try upstream.set(key: key, body: Self.allStops.replacingOccurrences(of: ",40380,true,", with: ",40380,false,"))
        _ = try daemon.result("refresh", ["what": "stations"])
        let seen = try notificationsBefore(watcher)
        #expect(seen.count == 1)
        #expect(seen.first?["params"]?["stopId"] == "30374")
        #expect(seen.first?["params"]?["sheet"]?["accessibilityButton"]?["tone"] == "warn")
        #expect(seen.first?["params"]?["sheet"]?["accessibilityButton"]?["stepFree"] == "none")

        // Gone upstream: the stop's answer is now -32001, and the notification says so with null.
        try upstream.set(key: key, body: Self.allStops.split(separator: "\n").filter { !$0.contains(",40380,") }.joined(separator: "\n"))
        _ = try daemon.result("refresh", ["what": "stations"])
        let gone = try notificationsBefore(watcher)
        #expect(gone.count == 1 && gone.first?["params"]?["sheet"] == .null && gone.first?["params"]?["seq"] == 2)
    }

    @Test func aSubscriberThatDoesNotReadCostsOneLatestSheetAndSeesTheGap() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/alerts.json"
        // About 9 KiB per notification (the description is in the dialog and in the alert), so
        // that sheets kept instead of coalesced would show in the daemon's size.
        let description = String(repeating: "Shuttle buses replace trains. ", count: 140)
        func change(_ n: Int) -> String { Self.alerts([(id: "1", headline: "Change \(n)", scopes: #"[{"type":"station","id":"40380"}]"#)], description: description) }
        try change(0).write(toFile: file, atomically: true, encoding: .utf8)
        // A small output limit, so the part that is not coalesced (the socket and output buffers)
        // is small; a long stuck timeout, so the test, not the daemon, decides when it reads.
        let daemon = try DaemonProcess(["--alerts-url", "file://\(file)", "--stations-url", stopsFile,
                                        "--max-output-bytes", "4096", "--stuck-timeout", "600", "--refresh-spacing", "0"])
        let sleeper = try daemon.client()
        var receiveBuffer: Int32 = 4096
        setsockopt(sleeper.connection.fd, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, socklen_t(MemoryLayout<Int32>.size))
        _ = try subscribe(sleeper, #"{"stopIds":["40380"]}"#)

        let changes = 1000
        let controller = try daemon.typedClient()
        var rssAfterWarmUp = 0
        for n in 1...changes {
            try change(n).write(toFile: file, atomically: true, encoding: .utf8)
            _ = try controller.refresh(.alerts)
            if n == 100 { rssAfterWarmUp = try Self.rssKiB(daemon.pid) }
        }
        let push = try #require(try controller.health().json["subscriptions"])
        #expect(push["count"] == 1 && push["stops"] == 1)
        #expect(push["queuedNotifications"] == 1, "one latest sheet held, however many changes: \(push.encodedString)")
        let heldBytes = try #require(push["queuedNotificationBytes"]?.intValue)
        // The stated bound: besides the one held notification, a non-reader costs its output
        // (4 KiB here) and the socket's buffer, both full after the first hundred changes; 900
        // more unread changes kept as they came would be about 8 MiB.
        let growth = try Self.rssKiB(daemon.pid) - rssAfterWarmUp
        // Under AddressSanitizer freed memory sits in its quarantine (up to 256 MiB): RSS then says
        // nothing about the design, and the queue counters above are the bound that holds.
        if ProcessInfo.processInfo.environment["STOPSHEET_SANITIZER"] == nil {
            #expect(growth < 4096, "RSS grew \(growth) KiB over 900 unread changes")
        }

        var seqs: [Int] = []
        var last = JSON.null
        while seqs.last != changes {
            let line = try #require(sleeper.readLine(timeout: patience), "after \(seqs.count) notifications")
            last = try JSONParser.parse(line)
            seqs.append(try #require(last["params"]?["seq"]?.intValue))
            if seqs.last == changes { #expect(line.utf8.count + 1 == heldBytes, "the held one was the last") }
        }
        #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count, "seq only grows")
        #expect(seqs.count < changes, "changes were coalesced: \(seqs.count) notifications for \(changes) changes")
        #expect(last["params"]?["sheet"]?["alertGlyph"]?["alert"]?["message"] == .string("Active train alert: Change \(changes)\n" + description), "the latest sheet")
        #expect(try notificationsBefore(sleeper).isEmpty)
        #expect(try controller.health().json["subscriptions"]?["queuedNotifications"] == 0)
    }

    static func rssKiB(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    @Test func theReplyIsWrittenBeforeAnyNotificationOfItsSubscription() throws {
        let key = key()
        try upstream.set(key: key, body: Self.alerts([Self.blueLine]), etag: false)
        let daemon = try DaemonProcess(["--alerts-url", upstream.url("/dyn/\(key)"), "--stations-url", stopsFile])
        try upstream.set(key: key, body: Self.alerts([Self.blueLine, Self.at69th]), etag: false)
        let client = try daemon.client()
        // The refresh changes 40990 while the batch's line is still open: the notification waits
        // for the whole line, which carries the subscribe reply.
        #expect(client.send(line: #"[{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"stopIds":["40990"]}},{"jsonrpc":"2.0","id":2,"method":"refresh","params":{"what":"alerts"}}]"#))
        let batch = try JSONParser.parse(try #require(client.readLine(timeout: patience)))
        let answers = batch.arrayValue ?? []
        #expect(answers.count == 2)
        #expect(answers.first?["result"]?["sheets"]?["40990"]?["alertGlyph"] == .null, "subscribed before the refresh")
        let notification = try JSONParser.parse(try #require(client.readLine(timeout: patience)))
        #expect(notification["method"] == "stopSheetChanged" && notification["params"]?["seq"] == 1)
        #expect(notification["params"]?["subscription"] == answers.first?["result"]?["subscription"])
    }

    @Test func everyLimitIsAnErrorAndNothingIsHalfSubscribed() throws {
        let daemon = try DaemonProcess(["--demo", "--max-subscriptions", "2", "--max-subscription-stops", "3", "--max-subscribed-stops", "5"])
        let first = try daemon.client(), second = try daemon.client()
        func code(_ client: TestClient, _ params: String) throws -> Int? { try subscribe(client, params)["error"]?["code"]?.intValue }
        func stops() throws -> Int? { try daemon.result("health")["subscriptions"]?["stops"]?.intValue }

        #expect(try code(first, #"{"stopIds":["40380","40990","40900","41450"]}"#) == -32006, "stops per subscription")
        #expect(try code(first, #"{"stopIds":["40380","49999"]}"#) == -32001, "an unknown id fails the whole call")
        #expect(try stops() == 0)
        for bad in [#"{}"#, #"{"stopIds":[]}"#, #"{"stopIds":"40380"}"#, #"{"stopIds":[true]}"#, #"{"health":"yes"}"#, #"{"stopIds":["40380"],"x":1}"#, #"["40380"]"#] {
            #expect(try code(first, bad) == -32602, "\(bad)")
        }
        #expect(try code(first, #"{"stopIds":["40380","40990","40900"]}"#) == nil)
        #expect(try code(first, #"{"stopIds":["41450","40380"]}"#) == nil)
        #expect(try stops() == 5)
        #expect(try code(second, #"{"stopIds":["40380"]}"#) == -32006, "subscribed stops in the daemon")
        #expect(try code(first, #"{"health":true}"#) == -32006, "subscriptions per connection")
        let detail = try subscribe(second, #"{"stopIds":["40380"]}"#)["error"]?["data"]?.stringValue ?? ""
        #expect(detail.contains("--max-subscribed-stops"), "the error names its flag: \(detail)")
        #expect(try code(second, #"{"health":true}"#) == nil, "health watches no stop")
    }

    @Test func unsubscribeEndsOnlyThatSubscriptionOfThatConnection() throws {
        let key = key()
        try upstream.set(key: key, body: Self.alerts([Self.blueLine]), etag: false)
        let daemon = try DaemonProcess(["--alerts-url", upstream.url("/dyn/\(key)"), "--stations-url", stopsFile])
        let client = try daemon.client(), stranger = try daemon.client()
        let ended = try #require(try subscribe(client, #"{"stopIds":["40990"]}"#)["result"]?["subscription"]?.stringValue)
        let kept = try #require(try subscribe(client, #"{"stopIds":["40990"],"health":true}"#)["result"]?["subscription"]?.stringValue)
        #expect(ended != kept)

        let refused = try exchange(stranger, #"{"jsonrpc":"2.0","id":1,"method":"unsubscribe","params":{"subscription":"\#(ended)"}}"#).answer
        #expect(refused["error"]?["code"] == -32007, "another connection's subscription is not the stranger's to end")
        let answer = try exchange(client, #"{"jsonrpc":"2.0","id":1,"method":"unsubscribe","params":{"subscription":"\#(ended)"}}"#).answer
        #expect(answer["result"] == true)
        let again = try exchange(client, #"{"jsonrpc":"2.0","id":1,"method":"unsubscribe","params":{"subscription":"\#(ended)"}}"#).answer
        #expect(again["error"]?["code"] == -32007)

        try upstream.set(key: key, body: Self.alerts([Self.blueLine, Self.at69th]), etag: false)
        try daemon.refreshAll()
        let seen = try notificationsBefore(client)
        #expect(seen.map { $0["params"]?["subscription"]?.stringValue } == [kept], "\(seen.map(\.encodedString))")
        #expect(seen.first?["params"]?["seq"] == 1)
    }

    @Test func healthChangedFollowsStatusAndLastError() throws {
        let key = key()
        try upstream.set(key: key, body: Self.alerts([Self.blueLine]), etag: false)
        let daemon = try DaemonProcess(["--alerts-url", upstream.url("/dyn/\(key)"), "--stations-url", stopsFile, "--alerts-interval", "600"])
        let client = try daemon.client()
        let reply = try subscribe(client, #"{"health":true}"#)
        #expect(reply["result"]?["health"]?["status"] == "ready")
        try upstream.set(key: key, status: 503)
        _ = try daemon.result("refresh", ["what": "alerts"])
        let failing = try notificationsBefore(client)
        #expect(failing.last?["method"] == "healthChanged")
        #expect(failing.last?["params"]?["health"]?["status"] == (try daemon.result("health")["status"]))
        #expect(failing.last?["params"]?["health"]?["alerts"]?["lastError"]?.stringValue?.contains("503") == true)
        _ = try daemon.result("refresh", ["what": "alerts"])
        #expect(try notificationsBefore(client).isEmpty, "a second failure alike changes nothing a dashboard shows")
        try upstream.set(key: key, body: Self.alerts([Self.blueLine]), etag: false)
        _ = try daemon.result("refresh", ["what": "alerts"])
        let recovered = try notificationsBefore(client)
        #expect(recovered.last?["params"]?["health"]?["status"] == "ready")
        #expect(recovered.last?["params"]?["health"]?["alerts"]?["lastError"] == .null)
    }

    @Test func closingTheConnectionEndsItsSubscriptions() throws {
        let daemon = try DaemonProcess(["--demo"])
        let client = try daemon.client()
        _ = try subscribe(client, #"{"stopIds":["40380","40990"],"health":true}"#)
        #expect(try daemon.result("health")["subscriptions"]?["count"] == 1)
        // The daemon ends the subscriptions before it closes the socket, so once this client sees
        // its end of stream they are gone.
        client.shutdownWrite()
        #expect(client.waitForClose())
        let push = try daemon.result("health")["subscriptions"]
        #expect(push?["count"] == 0 && push?["stops"] == 0 && push?["queuedNotifications"] == 0)
    }

    // MARK: - stopsheetctl watch

    @Test func watchPrintsChangesAndEndsQuietlyWhenItsReaderGoes() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/alerts.json"
        try Self.alerts([Self.blueLine]).write(toFile: file, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--alerts-url", "file://\(file)", "--stations-url", stopsFile])
        let watch = try WatchProcess(socket: daemon.socketPath, ["--json", "40990"])
        let first = try JSONParser.parse(try #require(watch.output.next(timeout: patience)))
        #expect(first["sheets"]?["40990"]?["alertGlyph"] == .null)
        try Self.alerts([Self.blueLine, Self.at69th]).write(toFile: file, atomically: true, encoding: .utf8)
        let people = try WatchProcess(socket: daemon.socketPath, ["40990"])
        #expect(try #require(people.output.next(timeout: patience)).contains("69th (40990): no train service alerts · step-free access"))
        try daemon.refreshAll()
        let second = try JSONParser.parse(try #require(watch.output.next(timeout: patience)))
        #expect(second["method"] == "stopSheetChanged" && second["params"]?["sheet"]?["alertGlyph"]?["count"] == 1)
        let line = try #require(people.output.next(timeout: patience))
        #expect(line.hasSuffix("  69th (40990): 1 train service alert · step-free access"), "\(line)")
        let detail = try #require(people.output.next(timeout: patience))
        // Its headline says an elevator is out: an accessibility advisory (issue 27), whatever its format.
        #expect(detail == "          added: accessibility advisory: Elevator at 69th out of service", "\(detail)")
        // `| head -2`: the reader goes; watch notices on its own and exits 0, with nothing on stderr.
        watch.output.close()
        #expect(watch.process.wait(seconds: 20) == 0)
        people.process.signal(SIGTERM)
        #expect(people.process.wait(seconds: 20) != nil)
    }

    @Test func watchReconnectsAcrossADaemonRestart() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/restart.sock"
        var daemon: DaemonProcess? = try DaemonProcess(["--demo", "--socket", socket])
        let watch = try WatchProcess(socket: socket, ["40380", "--health"])
        #expect(try #require(watch.output.next(timeout: patience)).contains("Clark/Lake (40380): "))
        #expect(try #require(watch.output.next(timeout: patience)).contains("health: ready"))
        #expect(daemon?.stop() == 0)
        daemon = nil
        #expect(try #require(watch.output.next(timeout: patience)).contains("connection lost"))
        daemon = try DaemonProcess(["--demo", "--socket", socket])
        var lines: [String] = []
        while !(lines.last ?? "").contains("subscribed again") {
            lines.append(try #require(watch.output.next(timeout: patience), "after \(lines)"))
        }
        #expect(lines.last?.contains("reconnected to \(socket)") == true)
        #expect(try StopSheetClient(socketPath: socket).health().json["subscriptions"]?["count"] == 1, "subscribed on the new daemon")
        _ = daemon
        watch.process.signal(SIGTERM)
        _ = watch.process.wait(seconds: 20)
    }
}

/// `stopsheetctl watch …` running, its stdout a pipe read line by line.
final class WatchProcess {
    let process: ChildProcess
    let output: PipeLines

    /// `environment` is added to the test's own (`COLUMNS`, `TZ`).
    init(socket: String, _ arguments: [String], environment extra: [String: String] = [:]) throws {
        let pipe = try PipePair()
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in extra { environment[key] = value }
        process = try ChildProcess(DaemonProcess.ctlBinary, ["--socket", socket, "watch"] + arguments,
                                   environment: environment, stdout: pipe.write)
        pipe.closeWrite()
        output = PipeLines(pipe)
    }

    deinit {
        process.signal(SIGKILL)
        process.wait()
    }
}

/// Lines from a pipe, each wait bounded.
final class PipeLines {
    private let pipe: PipePair
    private var buffer: [UInt8] = []

    init(_ pipe: PipePair) { self.pipe = pipe }

    func next(timeout: Double) -> String? {
        let deadline = SystemClock.monotonicMilliseconds() + Int64(timeout * 1000)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                defer { buffer.removeSubrange(...newline) }
                return String(decoding: buffer[..<newline], as: UTF8.self)
            }
            let left = deadline - SystemClock.monotonicMilliseconds()
            guard left > 0, pipe.read >= 0 else { return nil }
            var poller = pollfd(fd: pipe.read, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(pipe.read, &chunk, chunk.count)
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }

    func close() { pipe.closeRead() }
}
