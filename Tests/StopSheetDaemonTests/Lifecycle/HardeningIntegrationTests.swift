import Foundation
import Glibc
import StopSheetClient
import StopSheetCore
import StopSheetDaemon
import Testing

/// Issue 10's findings, each against the real binary: a hostile local user, a careless client or
/// a compromised upstream must not balloon the daemon, lock others out, race it on the
/// filesystem or reach a terminal through it.
@Suite(.serialized) struct HardeningIntegrationTests {
    static let sheetRequest = #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"}}"# + "\n"

    /// The daemon's own count of open connections, asked on a connection of its own (counted too).
    func connections(_ daemon: DaemonProcess) -> Int {
        (try? daemon.result("health")["connections"]?.intValue) ?? -1
    }

    // MARK: - Finding 1: memory by unread answers

    /// Never-reading clients, half pipelining requests, half holding a partial line as long as the
    /// line limit allows: the daemon's RSS stays under a bound derived from its limits, and a
    /// reading client is answered right all along.
    @Test func neverReadingClientsStayUnderTheBoundTheLimitsGive() throws {
        let budget = 4 << 20
        let clients = 200
        let daemon = try DaemonProcess(["--demo", "--max-buffered-bytes", String(budget), "--stuck-timeout", "600"])
        let expected = try daemon.result("stopSheet", ["stopId": "40380"])
        let good = try daemon.client()
        #expect(try good.request(#"{"jsonrpc":"2.0","id":0,"method":"version"}"#)["result"] != nil)
        let rssStart = residentKilobytes(daemon.pid)

        let pipelined = Array(String(repeating: Self.sheetRequest, count: 2048).utf8)
        let partial = Array(#"{"jsonrpc":"2.0","id":1,"method":"version","params":{"pad":""#.utf8) + [UInt8](repeating: 0x78, count: 1 << 19)
        var held: [TestClient] = []
        for index in 0..<clients {
            let client = try daemon.client()
            held.append(client)
            // Up to four blocks: past the first or second the socket takes no more (not read).
            for _ in 0..<4 where client.sendAvailable(index % 2 == 0 ? pipelined : partial) > 0 {}
            if index % 20 == 19 {
                let answer = try good.request(#"{"jsonrpc":"2.0","id":\#(index),"method":"stopSheet","params":{"stopId":"40380"}}"#)
                #expect(answer["result"]?.comparableSheet == expected.comparableSheet)
            }
        }
        for client in held { _ = client.sendAvailable(Array(Self.sheetRequest.utf8)) }
        for round in 0..<50 {
            let answer = try good.request(#"{"jsonrpc":"2.0","id":\#(round),"method":"stopSheet","params":{"stopId":"40380"}}"#)
            #expect(answer["result"]?.comparableSheet == expected.comparableSheet)
        }
        // The design's bound: the budget (×2 for array growth), and per connection one answer
        // (a 5 KB sheet), one small read and its own objects (32 KiB is generous), plus 8 MiB for
        // the allocator's slack. Without the budget the pipelining half alone holds 256 KiB+ each.
        let bound = rssStart + 2 * budget / 1024 + clients * 32 + 8 * 1024
        let rss = residentKilobytes(daemon.pid)
        #expect(rss < bound, "RSS \(rss) kB with \(clients) never-reading clients; the limits give \(bound) kB (\(rssStart) kB at start)")
        #expect(connections(daemon) == clients + 2)
    }

    /// Owed answers well under `--max-output-bytes`, never read: closed after `--stuck-timeout`
    /// all the same (before, only a client over the limit could be "stuck").
    @Test func aClientOwedAnswersBelowTheLimitThatTakesNoneIsClosed() throws {
        let daemon = try DaemonProcess(["--demo", "--max-output-bytes", "8388608", "--stuck-timeout", "1"])
        let stuck = try daemon.client()
        // ~2.4 MB of answers: more than the socket buffers take, far less than the limit.
        #expect(stuck.send(Array(String(repeating: Self.sheetRequest, count: 500).utf8)))
        // The daemon's close is the event, seen with the answers unread (reading would unstick it).
        #expect(stuck.waitForPeerClose(timeout: patience), "the stuck client is still connected")
        #expect(connections(daemon) == 1)
        #expect(try daemon.result("version")["name"] == "stopsheetd")
    }

    // MARK: - Finding 2: one uid locks everyone out

    /// `nobody` takes its per-uid cap; its next connection is refused with the reason, and root
    /// still gets in. Then the reserve: other users stop short of the last slots, root does not.
    @Test func oneUIDCannotTakeEverySlotAndRootAlwaysGetsIn() throws {
        guard getuid() == 0 else { return }
        let perUID = try DaemonProcess(["--demo", "--max-connections", "100", "--max-connections-per-uid", "3"])
        try perUID.openToEveryone()
        let capped = try ClientsAsNobody(socket: perUID.socketPath, count: 5)
        let answers = try capped.answers()
        #expect(answers.prefix(3).allSatisfy { $0["result"] != nil }, "\(answers)")
        for refused in answers.suffix(2) {
            #expect(refused["error"]?["code"] == -32004, "\(refused)")
            #expect(refused["error"]?["data"] == "too many connections from uid 65534 (limit 3)", "\(refused)")
        }
        #expect(try perUID.result("version")["name"] == "stopsheetd")
        #expect(connections(perUID) == 4)
        capped.release()

        // 8 slots, the last 4 reserved (at most half): nobody gets 4, root the rest.
        let reserved = try DaemonProcess(["--demo", "--max-connections", "8", "--max-connections-per-uid", "100"])
        try reserved.openToEveryone()
        let crowd = try ClientsAsNobody(socket: reserved.socketPath, count: 6)
        let crowded = try crowd.answers()
        #expect(crowded.prefix(4).allSatisfy { $0["result"] != nil }, "\(crowded)")
        #expect(crowded.suffix(2).allSatisfy { $0["error"]?["data"] == "too many connections; the last 4 are reserved for root" }, "\(crowded)")
        let admins = try (0..<3).map { _ in try reserved.client() }
        for admin in admins { #expect(try admin.request(#"{"jsonrpc":"2.0","id":1,"method":"version"}"#)["result"] != nil) }
        crowd.release()
    }

    @Test func badValuesOfTheNewLimitFlagsAreOneLineErrors() throws {
        for (flag, value) in [("--max-connections-per-uid", "0"), ("--max-buffered-bytes", "1000")] {
            let result = try runProcess(DaemonProcess.binary, ["--demo", "--socket", "/nonexistent/unused.sock", flag, value])
            #expect(result.status == 2, "\(flag) \(value)")
            #expect(result.stderr.hasPrefix("stopsheetd: \(flag)") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
    }

    /// One byte every 300 ms completes no request: with `--idle-timeout 1` that is idle.
    @Test func aDripThatCompletesNoRequestIsIdle() throws {
        let daemon = try DaemonProcess(["--demo", "--idle-timeout", "1"])
        let drip = try daemon.client()
        var closed = false
        for byte in Array(String(repeating: #"{"jsonrpc":"2.0","id":1,"method":"version"}"#, count: 1).utf8).dropLast() {
            // A byte, then up to 300 ms (the attack's pace) waiting for the daemon's close, the
            // event that ends the loop.
            guard drip.sendAvailable([byte]) == 1, !drip.waitForPeerClose(timeout: 0.3) else {
                closed = true
                break
            }
        }
        // Closed while still dripping (12 s of it): a close only after the drip stopped would be
        // the idle timeout of a silent client, which held before.
        #expect(closed, "a drip kept its slot past --idle-timeout")
    }

    // MARK: - Findings 4, 5, 8: the filesystem

    @Test func aSocketDirectoryOthersCouldReplaceTheSocketInIsRefused() throws {
        let parent = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        chmod(parent, 0o755)
        func start(_ directory: String) throws -> (status: Int32?, stderr: String) {
            let daemon = try DaemonProcess(["--demo", "--socket", directory + "/d.sock"], waitForReady: false)
            return (daemon.process.wait(seconds: 20), daemon.stderrText())
        }
        let open = parent + "/open"
        mkdir(open, 0o700)
        chmod(open, 0o777)
        let refusedOpen = try start(open)
        #expect(refusedOpen.status == 1)
        #expect(refusedOpen.stderr.contains("socket directory \(open) is writable by others (mode 777) and not sticky"), "\(refusedOpen.stderr)")

        if getuid() == 0 {
            let theirs = parent + "/theirs"
            mkdir(theirs, 0o755)
            chown(theirs, 65534, 65534)
            let refusedTheirs = try start(theirs)
            #expect(refusedTheirs.status == 1)
            #expect(refusedTheirs.stderr.contains("is owned by uid 65534"), "\(refusedTheirs.stderr)")
        }

        // Sticky, as /tmp is: nobody can remove or rename another's socket there.
        let sticky = parent + "/sticky"
        mkdir(sticky, 0o700)
        chmod(sticky, 0o1777)
        let daemon = try DaemonProcess(["--demo", "--socket", sticky + "/d.sock"])
        #expect(try TestClient(path: sticky + "/d.sock").request(#"{"jsonrpc":"2.0","id":1,"method":"version"}"#)["result"] != nil)
        #expect(daemon.stop() == 0)
    }

    /// No chmod by name: the daemon sets modes on descriptors only (strace shows the calls), so
    /// a symlink swapped in for the socket right after bind (held there by strace's delay) never
    /// has its target's mode changed.
    @Test func aSymlinkSwappedInAfterBindIsNeverChmodded() throws {
        guard let strace = installedStrace() else { return }
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/precious"
        FileManager.default.createFile(atPath: target, contents: Data("secret".utf8))
        chmod(target, 0o600)
        let socketPath = directory + "/run/sub/d.sock"
        try FileManager.default.createDirectory(atPath: directory + "/run/sub", withIntermediateDirectories: true)
        let trace = directory + "/trace"
        let stderrPath = directory + "/stderr"
        let stderrFile = open(stderrPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { close(stderrFile) }
        // bind returns only after 1 s: the window the old chmod-by-path left open, made wide.
        let child = try ChildProcess(strace, ["-f", "-qq", "-o", trace, "-e", "trace=chmod,fchmod,fchmodat,mkdir,bind",
                                              "-e", "inject=bind:delay_exit=1000000", DaemonProcess.binary, "--demo", "--socket", socketPath],
                                     environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("STOPSHEETD_") && $0.key != "NOTIFY_SOCKET" },
                                     stderr: stderrFile)
        // inotify says when bind made the socket; strace had written the bind's entry by then.
        #expect(waitForChange(in: directory + "/run/sub") { access(socketPath, F_OK) == 0 ? true : nil } != nil, "the socket never appeared")
        unlink(socketPath)
        symlink(target, socketPath)
        let daemonPID = try #require(tracedPID(in: trace, calling: "bind("), "no daemon under strace: \(String(describing: try? String(contentsOfFile: trace, encoding: .utf8)))")
        kill(daemonPID, SIGTERM)
        #expect(child.wait(seconds: 20) == 0, "strace reports the daemon's own exit status")
        var info = stat()
        #expect(stat(target, &info) == 0 && info.st_mode & 0o7777 == 0o600, "the symlink's target was chmodded")
        let calls = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
        #expect(calls.contains("fchmod("), "\(calls)")
        #expect(!calls.contains(" chmod(") && !calls.contains("fchmodat("), "a chmod by path: \(calls)")
        // The symlink is not the socket this daemon bound: left where it is.
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: socketPath)) == target)
    }

    /// A second daemon took the path over (the first one's socket file was removed): the first
    /// one's exit must not unlink the second's socket.
    @Test func exitLeavesASocketAnotherDaemonBoundSince() throws {
        let first = try DaemonProcess(["--demo"])
        unlink(first.socketPath)
        let second = try DaemonProcess(["--demo", "--socket", first.socketPath])
        #expect(first.stop() == 0)
        #expect(try TestClient(path: first.socketPath).request(#"{"jsonrpc":"2.0","id":1,"method":"version"}"#)["result"] != nil)
        #expect(second.stop() == 0)
        #expect(access(first.socketPath, F_OK) != 0, "the second daemon left its own socket behind")
    }

    // MARK: - Findings 7, 9: the config file

    @Test(arguments: ["fifo", "directory", "nul", "oversized", "/dev/zero"])
    func aConfigThatIsNoRegularTextFileIsAClearError(kind: String) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var path = directory + "/stopsheetd.conf"
        let expected: String
        switch kind {
        case "fifo":
            mkfifo(path, 0o600)
            expected = "is not a regular file (a FIFO)"
        case "directory":
            mkdir(path, 0o700)
            expected = "Is a directory"
        case "nul":
            try Data("STOPSHEETD_SOCKET=/tmp/a\0/b\n".utf8).write(to: URL(fileURLWithPath: path))
            expected = "contains a NUL byte (at byte 24)"
        case "oversized":
            try Data(repeating: 0x23, count: (1 << 20) + 1).write(to: URL(fileURLWithPath: path))
            expected = "is larger than 1048576 bytes"
        default:
            path = kind
            expected = "is not a regular file (a character device)"
        }
        let stderrPath = directory + "/stderr"
        let stderrFile = open(stderrPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { close(stderrFile) }
        let child = try ChildProcess(DaemonProcess.binary, ["--demo", "--socket", directory + "/d.sock", "--config", path],
                                     environment: ["PATH": "/usr/bin:/bin"], stderr: stderrFile)
        // Before the fix a FIFO hung here, before bind: the bound is only against a hung suite.
        let status = child.wait(seconds: 20)
        if status == nil {
            child.signal(SIGKILL)
            child.wait()
        }
        let text = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        #expect(status == 2, "still running (nil) or exited otherwise: \(text)")
        #expect(text.hasPrefix("stopsheetd: --config: ") && text.contains(expected), "\(text)")
    }

    /// A FIFO swapped in for the config before a SIGHUP: that reload fails at once and says why,
    /// and later SIGHUPs and SIGTERM work.
    @Test func aFIFOSwappedInBeforeSIGHUPFailsThatReloadOnly() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/stopsheetd.conf"
        try "STOPSHEETD_DEMO=1\n".write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--config", path])
        unlink(path)
        mkfifo(path, 0o600)
        for _ in 0..<2 {
            daemon.process.signal(SIGHUP)
            #expect(daemon.notifications.waitFor({ $0.contains("RELOADING=1") }, timeout: patience) != nil)
            #expect(daemon.notifications.waitFor({ $0.contains("READY=1") }, timeout: patience) != nil, "a reload hung on the FIFO")
        }
        unlink(path)
        try "STOPSHEETD_DEMO=1\n".write(toFile: path, atomically: true, encoding: .utf8)
        daemon.process.signal(SIGHUP)
        #expect(daemon.notifications.waitFor({ $0.contains("READY=1") }, timeout: patience) != nil)
        #expect(daemon.stop() == 0)
        if access("/run/systemd/journal/socket", F_OK) != 0 {
            let log = daemon.stderrText()
            #expect(log.contains("reload failed") && log.contains("is not a regular file (a FIFO)"), "\(log)")
            #expect(log.contains("reloaded"), "\(log)")
        }
    }

    // MARK: - Finding 10: refresh, redirects, escaping

    /// Calls share the fetch that starts next, and fetches asked for are spaced: however many
    /// callers, at most one upstream fetch a second per cache (before: one per call).
    @Test func refreshCallsAreCoalescedAndSpaced() throws {
        let upstream = try Upstream.shared()
        let key = "coalesce-\(UUID().uuidString)"
        try upstream.set(key: key, body: Fixtures.text("upstream/alerts.json"), etag: false)
        let daemon = try DaemonProcess(["--alerts-url", upstream.url("/dyn/\(key)"), "--stations-url", "file://\(Fixtures.path("L_stops_2021.csv"))"])
        let before = try upstream.hits(key: key)
        let began = SystemClock.monotonicMilliseconds()
        let group = DispatchGroup()
        let answered = Locked(0)
        let socketPath = daemon.socketPath
        for _ in 0..<40 {
            DispatchQueue.global().async(group: group) {
                let client = try? StopSheetClient(socketPath: socketPath, timeout: .seconds(patience))
                if (try? client?.call(method: "refresh", params: ["what": "alerts"]))?["alerts"]?["loaded"] == true { answered.withLock { $0 += 1 } }
            }
        }
        group.wait()
        #expect(answered.withLock { $0 } == 40)
        let together = try upstream.hits(key: key) - before
        // A bound the spacing gives, whatever the machine's speed: one fetch per started second.
        let seconds = (SystemClock.monotonicMilliseconds() - began) / 1000
        #expect(together >= 1 && together <= Int(seconds) + 1, "40 callers made \(together) fetches in \(seconds) s")

        // One after another: each waits for the spacing, so 4 calls span at least 3 s.
        let started = SystemClock.monotonicMilliseconds()
        for _ in 0..<4 { try daemon.result("refresh", ["what": "alerts"]) }
        let spanned = SystemClock.monotonicMilliseconds() - started
        #expect(spanned >= 3 * 1000 - 50, "4 sequential refreshes took only \(spanned) ms")
    }

    /// Upstream text with ESC, C1 controls, DEL and U+2028 leaves the daemon escaped: no raw
    /// control byte on the wire, and the parsed value is exactly the upstream's text.
    @Test func upstreamControlCharactersLeaveTheDaemonEscaped() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let hostile = "Elevator\u{1b}]0;owned\u{07} at \u{9b}2J69th\u{7f}\u{2028}\u{202e}out"
        let alerts = Fixtures.text("upstream/alerts.json").replacingOccurrences(of: "Elevator at 69th out", with: hostile.jsonEscapedForTest)
        let path = directory + "/alerts.json"
        try alerts.write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--alerts-url", "file://\(path)", "--stations-url", "file://\(Fixtures.path("L_stops_2021.csv"))"])
        let client = try daemon.client()
        #expect(client.send(line: #"{"jsonrpc":"2.0","id":1,"method":"alerts"}"#))
        let line = try #require(client.readLine())
        let bytes = Array(line.utf8)
        #expect(!bytes.contains { $0 < 0x20 || $0 == 0x7F }, "a raw control byte on the wire")
        #expect(!line.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0.value == 0x2028 }, "a raw C1 control or U+2028")
        #expect(line.contains(#"Elevator\u001b]0;owned\u0007 at \u009b2J69th\u007f\u2028"#), "\(line.prefix(400))")
        let headlines = try JSONParser.parse(line)["result"]?["alerts"]?.arrayValue?.compactMap { $0["headline"]?.stringValue } ?? []
        #expect(headlines.contains { $0.hasPrefix(hostile) }, "\(headlines)")
    }

    // MARK: - Start-up

    /// SIGTERM while start-up is held in bind (strace's delay): the daemon exits 0 once it can.
    @Test func sigtermDuringStartUpExitsZero() throws {
        guard let strace = installedStrace() else { return }
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/trace"
        let child = try ChildProcess(strace, ["-f", "-qq", "-o", trace, "-e", "trace=bind,rt_sigprocmask", "-e", "inject=bind:delay_enter=1000000",
                                              DaemonProcess.binary, "--demo", "--socket", directory + "/d.sock"],
                                     environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("STOPSHEETD_") && $0.key != "NOTIFY_SOCKET" })
        // Once the daemon blocks SIGTERM (its first act), start-up is under way and held in bind:
        // strace writes the call's result to its trace once it returned, and inotify says so.
        let daemonPID = try #require(tracedPID(in: trace, calling: "rt_sigprocmask(SIG_BLOCK, [HUP INT TERM]", returned: true),
                                     "the daemon never blocked SIGTERM: \(String(describing: try? String(contentsOfFile: trace, encoding: .utf8)))")
        #expect(blocksSIGTERM(daemonPID))
        kill(daemonPID, SIGTERM)
        #expect(child.wait(seconds: 20) == 0, "strace reports the daemon's own exit status")
    }
}

/// strace's path; nil, with the test failed, when it is missing (scripts/install-deps.sh installs it).
func installedStrace() -> String? {
    let candidates: [String] = ["/usr/bin/strace", "/bin/strace"]
    if let path = candidates.first(where: { access($0, X_OK) == 0 }) { return path }
    Issue.record("strace is not installed (scripts/install-deps.sh installs it)")
    return nil
}

/// The pid of the process under `strace -f -o trace` whose call starting with `call` the trace
/// shows (each line is `PID  call(...`), once strace has written it. strace writes a call's
/// entry as it enters it (so a call held by `inject=…:delay_…` is there, unfinished, meanwhile)
/// and its result (`= 0`) once it returned: `returned` waits for that.
func tracedPID(in trace: String, calling call: String, returned: Bool = false) -> Int32? {
    waitForChange(in: (trace as NSString).deletingLastPathComponent) {
        let text = String(decoding: FileManager.default.contents(atPath: trace) ?? Data(), as: UTF8.self)
        let line = text.split(separator: "\n").first { line in
            line.drop(while: { $0.isNumber }).drop(while: { $0 == " " }).hasPrefix(call) && (!returned || line.contains(") = "))
        }
        return line.flatMap { Int32($0.prefix(while: { $0.isNumber })) }
    }
}

/// Whether SIGTERM is in the process's blocked mask (SigBlk in /proc/PID/status).
func blocksSIGTERM(_ pid: Int32) -> Bool {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
          let mask = UInt64(line.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16)
    else { return false }
    return mask & (1 << (UInt64(SIGTERM) - 1)) != 0
}

extension DaemonProcess {
    /// Lets other users reach the socket (the directory is the test's, 0700).
    func openToEveryone() throws {
        chmod(directory, 0o755)
        chmod(socketPath, 0o666)
    }
}

extension String {
    /// As a JSON string's content (the quotes left off), for splicing into a fixture.
    fileprivate var jsonEscapedForTest: String { String(JSON.string(self).encodedString.dropFirst().dropLast()) }
}

/// Connections opened as `nobody` by a Python child: each asks `version` and the child prints
/// the answer line (or `CLOSED`), then holds every connection until `release()`.
final class ClientsAsNobody {
    static let script = """
        import socket, sys
        held = []
        for _ in range(int(sys.argv[2])):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(sys.argv[1])
            try:
                s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"version"}\\n')
            except OSError:
                pass  # refused and closed already: its one line is still there to read
            try:
                line = s.makefile("rb").readline().decode().strip()
            except OSError:
                line = ""
            print(line or "CLOSED", flush=True)
            held.append(s)
        sys.stdin.read()
        """
    private let child: ChildProcess
    private let input: PipePair
    private let output: PipePair
    private let count: Int

    init(socket: String, count: Int) throws {
        self.count = count
        input = try PipePair()
        output = try PipePair()
        child = try ChildProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", Self.script, socket, String(count)],
                                 environment: ["PATH": "/usr/bin:/bin"], stdin: input.read, stdout: output.write)
        input.closeRead()
        output.closeWrite()
    }

    deinit { release() }

    /// Every connection's answer, once all are open (at most 20 s).
    func answers() throws -> [JSON] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let deadline = SystemClock.monotonicMilliseconds() + 20_000
        while bytes.filter({ $0 == 0x0A }).count < count, SystemClock.monotonicMilliseconds() < deadline {
            var pollfd = Glibc.pollfd(fd: output.read, events: Int16(POLLIN), revents: 0)
            guard poll(&pollfd, 1, 1000) >= 0 else { break }
            guard pollfd.revents != 0 else { continue }
            let got = chunk.withUnsafeMutableBytes { read(output.read, $0.baseAddress, $0.count) }
            guard got > 0 else { break }
            bytes += chunk[0..<got]
        }
        return try String(decoding: bytes, as: UTF8.self).split(separator: "\n").map { line in
            line == "CLOSED" ? JSON.null : try JSONParser.parse(String(line))
        }
    }

    func release() {
        input.closeWrite()
        _ = child.wait(seconds: 10)
    }
}
