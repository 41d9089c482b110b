import Foundation
import Glibc
import Testing

/// stopsheetd's start as issue 18 met it, through the real binary: `--check-config` refuses what
/// the start refuses, in the same words, with stopsheetd(8)'s exit codes; a socket directory is
/// never made outside `/run`; the log has journald's `<N>` prefixes only on the journal's stream,
/// and one value per field.
@Suite struct DaemonStartupIntegrationTests {
    static var environment: [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("STOPSHEETD_") && !["NOTIFY_SOCKET", "LISTEN_FDS", "JOURNAL_STREAM"].contains($0.key) }
    }

    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ProcessResult {
        var environment = Self.environment
        for (key, value) in extra { environment[key] = value }
        return try runProcess(DaemonProcess.binary, arguments, environment: environment)
    }

    @Test(arguments: [
        (["--alerts-url", "example.com/alerts"], [String: String](),
         "--alerts-url: invalid URL 'example.com/alerts' (expected http://, https:// or file:///absolute/path)"),
        ([], ["STOPSHEETD_STATIONS_URL": "htps://www.transitchicago.com/stops.csv"],
         "STOPSHEETD_STATIONS_URL: unsupported URL scheme 'htps' (use http, https or file)"),
        (["--stations-url", "https:///stops.csv"], [:], "--stations-url: invalid URL 'https:///stops.csv' (no host; expected https://host/path)"),
    ])
    func checkConfigRefusesWhatTheStartRefusesInTheSameWords(arguments: [String], environment: [String: String], message: String) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let check = try run(["--check-config", "--demo"] + arguments, environment: environment)
        #expect(check.status == 1, "\(check.stderr)")
        #expect(check.stderr == "\(message)\nstopsheetd: configuration has errors (1 error)\n")
        let start = try run(["--demo", "--socket", directory + "/s.sock"] + arguments, environment: environment)
        #expect(start.status == 2, "stopsheetd(8): 2 when the configuration is wrong at start; \(start.stderr)")
        #expect(start.stderr == "stopsheetd: \(message)\n")
    }

    @Test func aBadYesOrNoListsEveryAcceptedWord() throws {
        let check = try run(["--check-config"], environment: ["STOPSHEETD_DEMO": "banana"])
        #expect(check.status == 1)
        #expect(check.stderr.hasPrefix("STOPSHEETD_DEMO: 'banana' is not one of 1, true, yes, on (or 0, false, no, off, empty), in any case\n"), "\(check.stderr)")
    }

    @Test func aLowercaseKeyInAConfigIsWarnedNotSilentlyIgnored() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/stopsheetd.conf"
        try "STOPSHEETD_DEMO=true\nstopsheetd_language=es\n".write(toFile: path, atomically: true, encoding: .utf8)
        let check = try run(["--check-config", "--config", path])
        #expect(check.status == 0)
        #expect(check.stderr == """
            \(path):2: warning: stopsheetd_language is ignored: keys are upper case (did you mean STOPSHEETD_LANGUAGE?)
            stopsheetd: configuration OK (1 warning)

            """)
    }

    /// Run as root, `--socket /nonexistent/x.sock` once made `/nonexistent` and served. A daemon
    /// that serves instead of refusing is stopped after 60 s, and the test says so.
    @Test func aSocketInAMissingDirectoryIsRefusedAndNothingIsMade() throws {
        let temporary = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        for directory in ["/nonexistent-ssd-\(getpid())-\(UInt32.random(in: 0...UInt32.max))", temporary + "/a/b"] {
            defer { unlink(directory + "/x.sock"); rmdir(directory) }
            let logPath = temporary + "/log"
            let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            try #require(log >= 0)
            let daemon = try ChildProcess(DaemonProcess.binary, ["--demo", "--socket", directory + "/x.sock"], environment: Self.environment, stderr: log)
            close(log)
            let status = daemon.wait(seconds: 60)
            if status == nil { daemon.signal(SIGKILL); daemon.wait() }
            let stderr = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            #expect(status == 1, "still serving after 60 s, or another status: \(status.map(String.init) ?? "running"); \(stderr)")
            #expect(stderr.contains("socket directory \(directory) does not exist; stopsheetd makes only a runtime directory directly in /run"),
                    "\(stderr)")
            #expect(access(directory, F_OK) != 0, "\(directory) was made")
        }
        #expect(access(temporary + "/a", F_OK) != 0)
    }

    /// `stopsheetd --demo 2> log`: plain lines. With `JOURNAL_STREAM` naming that very file (as
    /// systemd sets it for the stream it connected), `<N>` prefixes for journald.
    @Test(arguments: [false, true])
    func priorityPrefixesOnlyOnTheJournalsStreamAndOneValuePerField(journal: Bool) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let logPath = directory + "/log"
        let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(log >= 0)
        defer { close(log) }
        var info = stat()
        try #require(fstat(log, &info) == 0)
        let notifications = try DaemonNotifications(path: directory + "/notify.sock")
        defer { notifications.close() }
        var environment = Self.environment
        environment["NOTIFY_SOCKET"] = notifications.path
        if journal { environment["JOURNAL_STREAM"] = "\(info.st_dev):\(info.st_ino)" }
        let daemon = try ChildProcess(DaemonProcess.binary, ["--demo", "--socket", directory + "/s.sock", "--log-level", "info"],
                                      environment: environment, stderr: log)
        defer { daemon.signal(SIGKILL); daemon.wait() }
        #expect(notifications.waitFor({ $0.contains("READY=1") }, timeout: 60) != nil, "no READY=1 within 60 s")
        daemon.signal(SIGTERM)
        #expect(daemon.wait(seconds: 60) == 0)
        let lines = ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n")
        let start = lines.first { $0.contains("STOPSHEET_EVENT=start") } ?? "no start line in \(lines)"
        #expect(start.contains(" UPSTREAM_URL=demo:alerts UPSTREAM_URL=demo:stations"), "\(start)")
        #expect(!start.contains("UPSTREAM_URL=demo:alerts demo:stations"), "two values in one field: \(start)")
        if journal {
            #expect(lines.allSatisfy { $0.hasPrefix("<") }, "\(lines)")
            #expect(start.hasPrefix("<5>starting stopsheetd "), "\(start)")
        } else {
            #expect(!lines.contains { $0.hasPrefix("<") }, "\(lines)")
            #expect(start.hasPrefix("starting stopsheetd "), "\(start)")
        }
    }
}
