import Glibc
import Posix
import StopSheetClient
import StopSheetCore

/// `stopsheetctl watch STOP_ID… [--health] [--json]`: subscribes, prints the current sheets, then
/// each change as it comes, until interrupted. A lost connection (a daemon restart ends every
/// subscription) is retried with backoff, subscribed again, and said so. With `--json`: the
/// subscribe result as one line, then one line per notification, as the daemon sent them.
/// Output that nobody reads any more (`| head -2`) ends the command quietly with status 0.
/// Runs on the main thread.
struct Watch {
    let socketPath: String
    let timeout: Double
    let json: Bool
    let stopIDs: [String]
    let health: Bool
    /// The last sheet printed per stop id, to say what changed.
    private var sheets: [String: JSON] = [:]
    private var lastSeq = 0

    init(stopIDs: [String], health: Bool, socketPath: String, timeout: Double, json: Bool) {
        self.stopIDs = stopIDs
        self.health = health
        self.socketPath = socketPath
        self.timeout = timeout
        self.json = json
    }

    mutating func run() throws(Failure) -> Never {
        // A reader gone is EPIPE on the next write, and then a quiet exit.
        signal(SIGPIPE, SIG_IGN)
        var connected = false
        var backoff = 0.1
        while true {
            let client: StopSheetClient
            let reply: SubscribeReply
            do {
                client = try StopSheetClient(socketPath: socketPath, timeout: .seconds(timeout))
                reply = try client.subscribe(stopIds: stopIDs, health: health)
            } catch .rpc(let error) {
                throw .client(.rpc(error), hint: nil)
            } catch {
                // The first connection must work: as every other command, exit 3 when it does not.
                guard connected else { throw .client(error, hint: nil) }
                say("cannot reconnect: \(error); retrying in \(format(backoff)) s")
                sleepFor(backoff)
                backoff = min(backoff * 2, 5)
                continue
            }
            if connected { say("reconnected to \(socketPath) and subscribed again (subscription \(reply.subscription ?? "?"))") }
            backoff = 0.1
            lastSeq = 0
            show(reply, again: connected)
            connected = true
            let lost = follow(client)
            say("connection lost (\(lost)); reconnecting")
        }
    }

    /// Prints notifications until the connection fails; returns why it did.
    private mutating func follow(_ client: StopSheetClient) -> ClientError {
        while true {
            do {
                show(try client.nextNotification(timeout: .seconds(1)))
            } catch .timedOut {
                exitIfOutputGone()
            } catch {
                return error
            }
        }
    }

    // MARK: - Printing

    private mutating func show(_ reply: SubscribeReply, again: Bool) {
        if json { emit(SafeJSON.text(reply.json) + "\n") }
        for (stopID, sheet) in reply.sheets {
            let previous = sheets[stopID]
            sheets[stopID] = sheet.json
            guard !json, !again || previous != sheet.json else { continue }
            emit(stamp() + describe(stopID, sheet.json, previous: again ? previous : nil) + "\n")
        }
        if !json, let health = reply.health { emit(stamp() + describe(health: health.json) + "\n") }
    }

    private mutating func show(_ notification: PushNotification) {
        if json { return emit(SafeJSON.text(notification.json) + "\n") }
        var gap = ""
        if let seq = notification.seq {
            if seq > lastSeq + 1 { gap = " (\(seq - lastSeq - 1) coalesced)" }
            lastSeq = seq
        }
        switch notification.method.flatMap(RPCNotification.init(rawValue:)) {
        case .stopSheetChanged:
            let stopID = notification.stopId ?? "?"
            let sheet = notification.json["params"]?["sheet"] ?? .null
            let previous = sheets[stopID]
            sheets[stopID] = sheet
            emit(stamp() + describe(stopID, sheet, previous: previous ?? .null) + gap + "\n")
        case .healthChanged:
            emit(stamp() + describe(health: notification.json["params"]?["health"] ?? .null) + gap + "\n")
        case nil:
            emit(stamp() + "notification " + TerminalText.visible(notification.method ?? "?") + "\n")
        }
    }

    /// `Clark/Lake (40380): 8 alerts (5 active, 3 planned) · step-free available, tone good`;
    /// given the sheet before, `… changed: alerts 8 → 9 (…) · tone good → warn`.
    private func describe(_ stopID: String, _ sheet: JSON, previous: JSON?) -> String {
        let changed = previous == nil ? ":" : " changed:"
        guard sheet != .null else { return TerminalText.visible(stopID) + changed + " no longer a known stop" }
        let station = sheet["stationId"]?.stringValue ?? stopID
        let name = "\(sheet["stationName"]?.stringValue ?? stopID) (\(station)\(station == stopID ? "" : ", as \(stopID)"))"
        guard sheet["stopType"]?.stringValue == "train" else { return TerminalText.visible("bus stop \(stopID): no alert glyph, no accessibility button") }
        let count = Self.glyphCount(sheet)
        var alerts = "\(count) alert\(count == 1 ? "" : "s")"
        if let previous, previous != .null, Self.glyphCount(previous) != count { alerts = "alerts \(Self.glyphCount(previous)) → \(count)" }
        let kinds = ["active", "planned", "unknown"].compactMap { kind -> String? in
            let n = sheet["alerts"]?.arrayValue?.filter { $0["kind"]?.stringValue == kind }.count ?? 0
            return n > 0 ? "\(n) \(kind)" : nil
        }
        if !kinds.isEmpty { alerts += " (" + kinds.joined(separator: ", ") + ")" }
        let button = sheet["accessibilityButton"]
        var access = "step-free \(button?["stepFree"]?.stringValue ?? "?"), tone \(button?["tone"]?.stringValue ?? "?")"
        if let previous, previous != .null, let before = previous["accessibilityButton"]?["tone"]?.stringValue, before != button?["tone"]?.stringValue {
            access = "step-free \(button?["stepFree"]?.stringValue ?? "?"), tone \(before) → \(button?["tone"]?.stringValue ?? "?")"
        }
        return TerminalText.visible(name + changed + " " + alerts + " · " + access)
    }

    private func describe(health: JSON) -> String {
        var text = "health: \(health["status"]?.stringValue ?? "?")"
        for cache in ["alerts", "stations"] {
            let entry = health[cache]
            text += "; \(cache) \(entry?["loaded"] == true ? "loaded" : "not loaded")"
            if let error = entry?["lastError"]?.stringValue { text += ", last error: \(error)" }
        }
        return TerminalText.visible(text)
    }

    private static func glyphCount(_ sheet: JSON) -> Int { sheet["alertGlyph"]?["count"]?.intValue ?? 0 }

    /// A line of the watch's own (reconnecting): stdout for people, stderr beside `--json`.
    private func say(_ message: String) {
        if json { printError("stopsheetctl: \(message)") } else { emit(stamp() + message + "\n") }
    }

    private func stamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))  "
    }

    /// Unbuffered, so each line is out when it is printed; any failure means no reader.
    private func emit(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { exit(0) }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Between notifications: a pipe whose reader is gone shows as POLLERR on our end.
    private func exitIfOutputGone() {
        var output = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
        if poll(&output, 1, 0) > 0, output.revents & Int16(POLLERR | POLLHUP) != 0 { exit(0) }
    }

    private func sleepFor(_ seconds: Double) {
        exitIfOutputGone()
        usleep(UInt32(seconds * 1_000_000))
    }

    private func format(_ seconds: Double) -> String { String(Double(Int(seconds * 10)) / 10) }
}

extension Command {
    static let watch = Command(
        name: "watch", operands: "STOP_ID…", summary: "the sheets, then each change as it comes (until Ctrl-C)",
        options: [Option(name: "--health", value: nil, summary: "also follow the daemon's health")],
        operandCount: 0...Int.max
    ) { invocation throws(Failure) in
        let health = invocation.arguments.has("--health")
        guard !invocation.operands.isEmpty || health else { throw .usage("watch needs a STOP_ID or --health") }
        var watch = Watch(stopIDs: invocation.operands, health: health, socketPath: invocation.socketPath,
                          timeout: invocation.timeout, json: invocation.json)
        try watch.run()
    }
}
