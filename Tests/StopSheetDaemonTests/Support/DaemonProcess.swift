import Foundation
import Glibc
import Posix
import StopSheetClient
import StopSheetCore
import StopSheetDaemon
import Testing

/// The real `stopsheetd` binary, started for one test on a socket in a fresh temp directory.
/// Readiness is the daemon's own `READY=1` on a test-owned NOTIFY_SOCKET — a signal, not a sleep.
final class DaemonProcess {
    let directory: String
    let socketPath: String
    private(set) var process: ChildProcess!
    let arguments: [String]
    let notifications: DaemonNotifications
    /// A file, not a pipe: nobody reads a pipe until the daemon exits, so a daemon writing more
    /// than a pipe holds (debug logging, a sanitizer's report at exit) would block forever.
    private let stderrPath: String

    /// The binary next to the test bundle (`swift build` puts both in the same folder), or
    /// `$STOPSHEETD_BIN`.
    static var binary: String {
        requireIntegrationSuite()
        if let path = ProcessInfo.processInfo.environment["STOPSHEETD_BIN"] { return path }
        let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for candidate in [bundleDirectory, bundleDirectory.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("stopsheetd").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return Fixtures.packageRoot + "/.build/debug/stopsheetd"
    }

    /// `make check` runs every suite but the `…IntegrationTests` ones (scripts/swift-tests.py), so
    /// that the inner loop starts no daemon: a test elsewhere that reaches for a binary is filed
    /// wrongly, and says so.
    private static func requireIntegrationSuite() {
        guard let test = Test.current else { return }
        let id = String(describing: test.id)  // Module.Suite/test()/File.swift:line:column
        if !id.prefix(while: { $0 != "/" }).hasSuffix("IntegrationTests") {
            Issue.record("\(id) runs the real binaries: it belongs in a suite named …IntegrationTests")
        }
    }

    static var ctlBinary: String {
        URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent("stopsheetctl").path
    }

    /// A STATUS= line saying both caches are loaded: `serving 143 stations, 17 train alerts…`.
    static func bothLoaded(_ status: String) -> Bool {
        status.hasPrefix("serving ") && !status.hasPrefix("serving no ") && !status.contains(" no train alerts")
    }

    /// Starts the daemon with `arguments` (plus `--socket`), waits for READY=1, then for a STATUS=
    /// that `until` accepts (by default: both caches loaded).
    /// `socket`: a path chosen by the test (one a client waits for before the daemon exists).
    init(_ arguments: [String], environment extra: [String: String] = [:], waitForReady: Bool = true, socket: String? = nil,
         until: @escaping (String) -> Bool = DaemonProcess.bothLoaded) throws
    {
        directory = try makeTemporaryDirectory()
        socketPath = socket ?? directory + "/stopsheetd.sock"
        notifications = try DaemonNotifications(path: directory + "/notify.sock")
        self.arguments = ["--socket", socketPath] + arguments
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("STOPSHEETD_") && $0.key != "LISTEN_FDS" && $0.key != "WATCHDOG_USEC" }
        environment["NOTIFY_SOCKET"] = notifications.path
        for (key, value) in extra { environment[key] = value }
        stderrPath = directory + "/stderr.log"
        let stderrFile = open(stderrPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard stderrFile >= 0 else { throw TestFailure("cannot create \(stderrPath)") }
        defer { close(stderrFile) }
        process = try ChildProcess(DaemonProcess.binary, self.arguments, environment: environment, stderr: stderrFile)
        if waitForReady {
            guard notifications.waitFor({ $0.contains("READY=1") }, timeout: patience) != nil else {
                stop()
                throw TestFailure("stopsheetd sent no READY=1 within \(patience) s; stderr: \(stderrText())")
            }
            try waitForStatus(until)
        }
    }

    deinit {
        stop()
        // Under `make sanitize` the daemon is sanitized too; its reports land on its stderr.
        let log = stderrText()
        if let report = log.range(of: "Sanitizer:") {
            Issue.record("stopsheetd \(arguments) reported: \(log[report.lowerBound...].prefix(3000))")
        }
        keepLog(log)
        notifications.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Under scripts/swift-tests.py, the daemon's log outlives the test: a failing suite's report
    /// ends with the tail of each daemon log its tests left.
    private func keepLog(_ log: String) {
        guard let folder = ProcessInfo.processInfo.environment["STOPSHEET_TEST_LOGS"] else { return }
        let test = Test.current.map { String(describing: $0.name) } ?? "unknown"
        let name = "\(test.filter { $0.isLetter || $0.isNumber })-\(process?.pid ?? 0).log"
        let header = "stopsheetd \(arguments.joined(separator: " "))\n"
        FileManager.default.createFile(atPath: folder + "/" + name, contents: Data((header + log).utf8))
    }

    /// Waits for a STATUS= notification that `predicate` accepts (sent or already received).
    func waitForStatus(_ predicate: @escaping (String) -> Bool, timeout: Double = patience) throws {
        let matches: (String) -> Bool = { datagram in
            datagram.split(separator: "\n").contains { $0.hasPrefix("STATUS=") && predicate(String($0.dropFirst(7))) }
        }
        guard notifications.waitFor(matches, timeout: timeout) != nil else {
            throw TestFailure("no matching STATUS= within \(timeout) s; got \(notifications.received.suffix(3))")
        }
    }

    func client() throws -> TestClient { try TestClient(path: socketPath) }

    /// The product's client, as another package's tests would use it.
    func typedClient() throws -> StopSheetClient { try StopSheetClient(socketPath: socketPath, timeout: .seconds(patience)) }

    /// One request on a fresh connection; returns the whole response object.
    func call(_ method: String, _ params: JSON? = nil) throws -> JSON {
        let answer = try typedClient().answer(method: method, params: params)
        if let result = answer[RPCEnvelope.result] { AnswerLog.result(result, of: method) }
        return answer
    }

    /// One request on a fresh connection; its result, or the daemon's error thrown.
    func result(_ method: String, _ params: JSON? = nil) throws -> JSON {
        let result = try typedClient().call(method: method, params: params)
        AnswerLog.result(result, of: method)
        return result
    }

    /// Both caches refreshed now; answers when done, so tests need no waiting of their own.
    @discardableResult
    func refreshAll() throws -> JSON { try result("refresh", ["what": "all"]) }

    var pid: Int32 { process.pid }

    /// SIGTERM (after SIGCONT, in case a test stopped it) and wait; returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        guard let process else { return -1 }
        process.signal(SIGCONT)
        process.signal(SIGTERM)
        // The daemon drains for at most 5 s; one that outlives SIGTERM much longer is a bug to
        // report, not a reason to hang the suite.
        if let status = process.wait(seconds: 30) { return status }
        Issue.record("stopsheetd \(arguments) did not exit within 30 s of SIGTERM")
        process.signal(SIGKILL)
        return process.wait()
    }

    /// The first line of the daemon's stderr log that `matches`, written already or once the
    /// daemon writes it (the log line is the event); nil after `timeout` seconds.
    func waitForLog(timeout: Double = patience, _ matches: @escaping (Substring) -> Bool) -> String? {
        waitForLine(in: stderrPath, timeout: timeout, matches)
    }

    /// Returns once the daemon has sent `count` more WATCHDOG=1 pings (false after `timeout`):
    /// for what only time passing with nothing happening can show (a quiet connection that
    /// stays), counted in the serving loop's own ticks instead of slept. Needs the daemon started
    /// with `WATCHDOG_USEC` (`environment:`); it pings from its tick, at most every 95 % of half
    /// of that, and checks the connections' timeouts on every tick between.
    func waitForWatchdogPings(_ count: Int, timeout: Double = patience) -> Bool {
        notifications.skipReceived()
        for _ in 0..<count {
            guard notifications.waitFor({ $0.contains("WATCHDOG=1") }, timeout: timeout) != nil else { return false }
        }
        return true
    }

    /// What the daemon wrote to stderr so far.
    func stderrText() -> String {
        String(decoding: FileManager.default.contents(atPath: stderrPath) ?? Data(), as: UTF8.self)
    }
}

/// A test-owned NOTIFY_SOCKET: a datagram socket receiving what the daemon tells systemd.
///
/// A thread drains it from the start. A Unix datagram queue holds only `net.unix.max_dgram_qlen`
/// messages (10 by default); the daemon drops periodic datagrams it cannot send, so reading them
/// all keeps the waits below honest rather than keeping the daemon alive.
final class DaemonNotifications: @unchecked Sendable {
    let path: String
    private let address: UnixSocketAddress
    /// Closed by the reader thread when it ends.
    private let socket: Descriptor
    private var fd: Int32 { socket.raw }
    private struct State {
        var all: [String] = []
        /// Datagrams before this index were passed over by an earlier wait.
        var cursor = 0
        var closed = false
        var paused = false
    }
    private let state = Locked(State())
    /// Signalled for each datagram received; one waiter at a time (the test's thread).
    private let arrived = WakeSignal()

    var received: [String] { state.withLock { $0.all } }

    init(path: String) throws {
        self.path = path
        address = try UnixSocketAddress(path: path)
        socket = Descriptor(adopting: try UnixSocket.open(.datagram))
        do { try UnixSocket.bind(fd, to: address) } catch {
            throw TestFailure("bind \(path): \(error)")
        }
        let thread = Thread { [self] in drain() }
        thread.start()
    }

    /// Stops reading, like a manager that has stopped listening: the daemon's datagrams queue up.
    func pause() { state.withLock { $0.paused = true } }

    /// Passes over every datagram received so far: the next `waitFor` sees only later ones.
    func skipReceived() { state.withLock { $0.cursor = $0.all.count } }

    /// Sends datagrams to this socket until its queue is full (EAGAIN); returns how many.
    func fillQueue() -> Int {
        guard let sender = try? UnixSocket.open(.datagram, nonBlocking: true) else { return 0 }
        defer { Glibc.close(sender) }
        var count = 0
        while count < 100_000 {
            let sent = address.withSockaddr { sendto(sender, "X=1", 3, 0, $0, $1) }
            guard sent == 3 else { break }
            count += 1
        }
        return count
    }

    /// Stops the reader (it holds the object until then) and closes the socket.
    func close() {
        state.withLock { $0.closed = true }
        resumed.signal()
    }

    /// Signalled by `close`, for a reader that is paused.
    private let resumed = WakeSignal()

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !state.withLock({ $0.closed }) {
            if state.withLock({ $0.paused }) {
                // Paused for good: only `close` ends it.
                resumed.wait(milliseconds: -1)
                continue
            }
            var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pollfd, 1, 100) > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { continue }
            let message = String(decoding: buffer[0..<count], as: UTF8.self)
            state.withLock { $0.all.append(message) }
            arrived.signal()
        }
        socket.close()
    }

    /// The next datagram matching `predicate` after the previous match (received already or
    /// arriving within `timeout`). Earlier datagrams never satisfy a later wait.
    func waitFor(_ predicate: (String) -> Bool, timeout: Double) -> String? {
        let deadline = SystemClock.monotonicMilliseconds() + Int64(timeout * 1000)
        while true {
            let match = state.withLock { state -> String? in
                if let index = state.all[state.cursor...].firstIndex(where: predicate) {
                    state.cursor = index + 1
                    return state.all[index]
                }
                state.cursor = state.all.count
                return nil
            }
            if let match { return match }
            let left = deadline - SystemClock.monotonicMilliseconds()
            guard left > 0 else { return nil }
            arrived.wait(milliseconds: left)
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
