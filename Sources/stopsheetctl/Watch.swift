import Glibc
import Posix
import StopSheetClient
import StopSheetCore

/// `stopsheetctl watch STOP_ID… [--bus] [--health] [--json]`: subscribes, prints a line per stop
/// (and health) saying where it stands, then, as changes come, what changed (`WatchLines`),
/// until interrupted. A lost connection (a daemon restart ends every subscription) is retried
/// with backoff, subscribed again, and said so; the new subscription's answers are compared with
/// what was shown, so a reconnect that changed nothing prints nothing more. Lines fit the width.
/// With `--json`: each subscribe result as one line (again
/// after a reconnect: a fresh baseline), then one line per notification, as the daemon sent them.
/// Output that nobody reads any more (`| head -2`) ends the command quietly with status 0.
/// Runs on the main thread.
struct Watch {
    let invocation: Invocation
    let stopType: StopType?
    let health: Bool
    /// What was last shown per stop id, and of health, to say what changed.
    private var sheets: [String: WatchLines.Shown] = [:]
    private var shownHealth: Answer.Health?
    private var lastSeq = 0
    /// The agency's clock, for the stamps: its zone asked of the daemon at each connection.
    private var clock: AgencyClock?

    init(_ invocation: Invocation, stopType: StopType?, health: Bool) {
        self.invocation = invocation
        self.stopType = stopType
        self.health = health
    }

    private var json: Bool { invocation.json }

    mutating func run() throws(Failure) -> Never {
        // A reader gone is EPIPE on the next write, and then a quiet exit.
        signal(SIGPIPE, SIG_IGN)
        var connected = false
        var backoff = 0.1
        while true {
            let client: StopSheetClient
            let reply: Reply<Answer.Subscribed>
            do {
                client = try StopSheetClient(socketPath: invocation.socketPath, timeout: .seconds(invocation.timeout))
            } catch {
                // The first connection must work: as every other command, exit 3 when it does not.
                guard connected else { throw .client(error, hint: Hints.unreachable(error, socketPath: invocation.socketPath)) }
                // Said once; the retries go on quietly until one works.
                if backoff == 0.1 { say("cannot reconnect: \(error); retrying, every 5 s at most") }
                sleepFor(backoff)
                backoff = min(backoff * 2, 5)
                continue
            }
            let zoneName: String?
            do {
                zoneName = try client.health().timeZone.value
                reply = try client.subscribe(stopIds: invocation.operands, stopType: stopType, health: health)
            } catch .rpc(let error) {
                throw .client(.rpc(error), hint: Hints.after(.rpc(error), invocation: invocation, client: client))
            } catch {
                guard connected else { throw .client(error, hint: nil) }
                if backoff == 0.1 { say("cannot subscribe again: \(error); retrying, every 5 s at most") }
                sleepFor(backoff)
                backoff = min(backoff * 2, 5)
                continue
            }
            if connected { say("reconnected to \(invocation.socketPath) and subscribed again") }
            if clock == nil || clock?.zoneName != zoneName {
                let agency = AgencyClock(zoneName: zoneName)
                clock = agency
                if let problem = agency.problem { say(problem) }
            }
            backoff = 0.1
            lastSeq = 0
            show(reply)
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

    private mutating func show(_ reply: Reply<Answer.Subscribed>) {
        if json { emit(SafeJSON.text(reply.json) + "\n") }
        // In the order given, as the daemon lists them.
        var seen: Set<String> = []
        for stopID in invocation.operands where seen.insert(stopID).inserted {
            if let sheet = reply.sheets?[stopID] { show(stopID, sheet, gap: "") }
        }
        if let health = reply.health { show(health: health, gap: "") }
    }

    private mutating func show(_ notification: PushNotification) {
        if json { return emit(SafeJSON.text(notification.message) + "\n") }
        var gap: TerminalText = ""
        if let seq = notification.seq {
            if seq > lastSeq + 1 { gap = " (\(seq - lastSeq - 1) coalesced)" }
            lastSeq = seq
        }
        switch notification {
        case .stopSheetChanged(let change): show(change.stopId, change.sheet.value, gap: gap)
        case .healthChanged(let change): show(health: change.health, gap: gap)
        case .other(let method, _): print(WatchLines.Event(headline: "notification " + TerminalText(method)))
        }
    }

    private mutating func show(_ stopID: String, _ sheet: Answer.Sheet?, gap: TerminalText) {
        let previous = sheets[stopID]
        sheets[stopID] = sheet.map(WatchLines.Shown.sheet) ?? .unknownStop
        guard !json, var event = WatchLines.sheet(stopID, sheet, previous: previous) else { return }
        event.headline = event.headline + gap
        print(event)
    }

    private mutating func show(health: Answer.Health, gap: TerminalText) {
        let previous = shownHealth
        shownHealth = health
        guard !json, var event = WatchLines.health(health, previous: previous) else { return }
        event.headline = event.headline + gap
        print(event)
    }

    /// The headline after the time, wrapped under it; each detail one line, cut to the width.
    private func print(_ event: WatchLines.Event) {
        var page = Page(width: invocation.width)
        page.paragraph(event.headline, hangingIndent: Self.indent, lead: TerminalText(stamp().padding(to: Self.indent - 1)))
        for detail in event.details { page.line(detail, indent: Self.indent) }
        emit(page.text)
    }

    private static let indent = 10

    /// A line of the watch's own (reconnecting): stdout for people, stderr beside `--json`.
    private func say(_ message: String) {
        if json { printError("stopsheetctl: \(TerminalText(message))") } else { print(WatchLines.Event(headline: TerminalText(message))) }
    }

    /// `14:35:07`: when the line arrived, on the agency's clock, as every time `stopsheetctl`
    /// shows (protocol.md, "Time zone"); a line of watch's own before the first connection has
    /// the UTC stamp of a zone not known yet.
    private func stamp() -> String {
        (clock ?? AgencyClock(zoneName: nil)).stamp(at: Instant(secondsSince1970: Int64(time(nil))))
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
}

extension Command {
    static let watch = Command(
        name: "watch", operands: "STOP_ID…", summary: "each stop in a line, then what changes (until Ctrl-C)",
        options: [
            Option(name: "--health", value: nil, summary: "also follow the daemon's health"),
            Option(name: "--bus", value: nil, summary: "the STOP_IDs are bus stops"),
        ],
        operandCount: 0...Int.max
    ) { invocation throws(Failure) in
        let health = invocation.arguments.has("--health")
        guard !invocation.operands.isEmpty || health else { throw .usage("watch needs a STOP_ID or --health") }
        var watch = Watch(invocation, stopType: invocation.arguments.has("--bus") ? .bus : nil, health: health)
        try watch.run()
    }
}
