import Foundation
import Glibc
import StopSheetCore
import Testing
import ZoneInfo
@testable import StopSheetDaemon

/// The configuration checker (`Config.check`, `--check-config`, warnings at start and reload):
/// every mistake located as file:line, unknown keys warned with a likely intent, a missing
/// config file an error unless marked optional with `-`.
@Suite struct ConfigCheckIntegrationTests {
    static let path = "/etc/stopsheetd/stopsheetd.conf"

    func check(_ text: String?, _ arguments: [String] = ["--config", ConfigCheckIntegrationTests.path], environment: [String: String] = [:]) -> Config.Checked {
        Config.check(arguments: arguments, environment: environment, readFile: { $0 == ConfigCheckIntegrationTests.path ? text : nil })
    }

    @Test func aCleanFileHasNoProblems() {
        let checked = check("# comment\n\n; other comment\nSTOPSHEETD_DEMO=true\nhttps_proxy=http://proxy:3128\n")
        #expect(checked.problems.isEmpty)
        guard case .run(let config)? = checked.action else { Issue.record("no config: \(checked.problems)"); return }
        #expect(config.demo && config.configFile == Self.path)
    }

    @Test func aTimeZoneIsReadFromTheDatabaseAndAnUnknownOneIsAnErrorAtItsLine() {
        let good = check("STOPSHEETD_DEMO=true\nSTOPSHEETD_TIME_ZONE=America/New_York\n")
        guard case .run(let config)? = good.action else { Issue.record("no config: \(good.problems)"); return }
        #expect(config.timeZone?.identifier == "America/New_York")
        #expect(config.timeZone?.utcOffset(at: Instant(secondsSince1970: 1_772_953_200)) == -14_400)
        #expect(check("STOPSHEETD_DEMO=true\n").action.flatMap { if case .run(let config) = $0 { config.timeZone } else { nil } } == nil)
        let bad = check("STOPSHEETD_DEMO=true\nSTOPSHEETD_TIME_ZONE=Mars/Olympus_Mons\n")
        #expect(bad.action == nil)
        #expect(bad.errors.map(\.description) == [
            "\(Self.path):2: STOPSHEETD_TIME_ZONE: 'Mars/Olympus_Mons' is not a zone of the time-zone database in \(TimeZoneDatabase.directory) (is tzdata installed?)",
        ])
    }

    @Test func anUnknownKeyIsAWarningWithTheLikelyIntent() {
        let checked = check("STOPSHEETD_DEMO=true\n\nSTOPSHEETD_ALERT_URL=https://example.invalid/alerts\nSTOPSHEETD_LOGLEVEL=debug\nSTOPSHEETD_FROBNICATE=1\n")
        #expect(checked.errors.isEmpty && checked.action != nil)
        #expect(checked.warnings.map(\.description) == [
            "\(Self.path):3: warning: unknown key STOPSHEETD_ALERT_URL, ignored (did you mean STOPSHEETD_ALERTS_URL?)",
            "\(Self.path):4: warning: unknown key STOPSHEETD_LOGLEVEL, ignored (did you mean STOPSHEETD_LOG_LEVEL?)",
            "\(Self.path):5: warning: unknown key STOPSHEETD_FROBNICATE, ignored",
        ])
        // The unknown key changed nothing; the warnings do not stop the daemon.
        guard case .run(let config)? = checked.action else { return }
        #expect(config.alertsURL == nil && config.logLevel == .notice)
    }

    @Test func linesThatAreNotSettingsAreWarnings() {
        let checked = check("STOPSHEETD_DEMO=true\nSTOPSHEETD_MAX_BATCH 10\nexport STOPSHEETD_MAX_DEPTH=8\n=5\n")
        #expect(checked.action != nil)
        #expect(checked.warnings.map(\.description) == [
            "\(Self.path):2: warning: not a KEY=value line, ignored: 'STOPSHEETD_MAX_BATCH 10'",
            "\(Self.path):3: warning: 'export STOPSHEETD_MAX_DEPTH' is not a variable name, line ignored",
            "\(Self.path):4: warning: '' is not a variable name, line ignored",
        ])
    }

    @Test func aKeySetTwiceIsAWarningAndTheLastWins() {
        let checked = check("STOPSHEETD_DEMO=true\nSTOPSHEETD_MAX_BATCH=10\nSTOPSHEETD_MAX_BATCH=20\n")
        #expect(checked.warnings.map(\.description) == ["\(Self.path):3: warning: STOPSHEETD_MAX_BATCH is set again (line 2 is overridden)"])
        guard case .run(let config)? = checked.action else { Issue.record("no config"); return }
        #expect(config.maxBatch == 20)
    }

    @Test func badValuesAreErrorsAtTheirLineAndAllAreReported() {
        let checked = check("STOPSHEETD_DEMO=perhaps\n# fine\nSTOPSHEETD_ALERTS_INTERVAL=0\nSTOPSHEETD_LOG_LEVEL=loud\n")
        #expect(checked.action == nil)
        #expect(checked.errors.map(\.description) == [
            "\(Self.path):1: STOPSHEETD_DEMO: 'perhaps' is not one of 1, true, yes, on (or 0, false, no, off, empty), in any case",
            "\(Self.path):3: STOPSHEETD_ALERTS_INTERVAL: '0' is not a number of seconds between 1 and 604800",
            "\(Self.path):4: STOPSHEETD_LOG_LEVEL: 'loud' is not one of critical, error, warning, notice, info, debug",
        ])
        // What the daemon prints when it refuses to start, or a reload keeps the old configuration.
        #expect(throws: Config.Failure(description: "\(Self.path):1: STOPSHEETD_DEMO: 'perhaps' is not one of 1, true, yes, on (or 0, false, no, off, empty), in any case")) {
            try Config.load(arguments: ["--config", Self.path], environment: [:], readFile: { _ in "STOPSHEETD_DEMO=perhaps\n" })
        }
    }

    @Test func aMissingConfigFileIsAnErrorUnlessMarkedOptional() {
        let missing = check(nil, ["--demo", "--config", "/etc/nothing.conf"])
        #expect(missing.action == nil)
        #expect(missing.errors.map(\.description) == ["/etc/nothing.conf: cannot read this config file (to make it optional, give it as --config -/etc/nothing.conf)"])
        let optional = check(nil, ["--demo", "--config", "-/etc/nothing.conf"])
        #expect(optional.problems.isEmpty && optional.action != nil)
        // The same through the environment, and an optional file that exists is read.
        #expect(check(nil, ["--demo"], environment: ["STOPSHEETD_CONFIG": "/etc/nothing.conf"]).action == nil)
        let present = check("STOPSHEETD_MAX_BATCH=7\n", ["--demo", "--config=-\(Self.path)"])
        guard case .run(let config)? = present.action else { Issue.record("no config: \(present.problems)"); return }
        #expect(config.maxBatch == 7 && config.configFile == Self.path)
    }

    @Test func warningsReachTheCallerOfLoad() throws {
        var warnings: [ConfigProblem] = []
        let action = try Config.load(arguments: ["--config", Self.path], environment: [:],
                                     readFile: { _ in "STOPSHEETD_DEMO=1\nSTOPSHEETD_ALERT_URL=x\n" }, warnings: &warnings)
        #expect(warnings.map(\.line) == [2] && warnings.map(\.file) == [Self.path])
        guard case .run(let config) = action else { Issue.record("no config"); return }
        #expect(config.demo)
    }

    @Test func theCommandLineAndEnvironmentAreCheckedToo() {
        #expect(check(nil, ["--demo", "--alert-url", "x"]).errors.map(\.description) == ["unknown option '--alert-url' (did you mean --alerts-url?)"])
        #expect(check(nil, ["--demo"], environment: ["STOPSHEETD_MAX_BATCH": "0"]).errors.map(\.description)
            == ["STOPSHEETD_MAX_BATCH: '0' is not a whole number between 1 and 1073741824"])
        // A STOPSHEETD_CONFIG inside the file cannot point elsewhere.
        #expect(check("STOPSHEETD_DEMO=1\nSTOPSHEETD_CONFIG=/x\n").warnings.map(\.description)
            == ["\(Self.path):2: warning: STOPSHEETD_CONFIG has no effect inside a config file"])
        #expect(Config.asksForCheck(["--config", "x", "--check-config"]) && !Config.asksForCheck(["--demo"]))
    }

    /// The real binary: `stopsheetd --check-config` on a config with two mistakes, every line of
    /// its output and its exit status; then the same file fixed.
    @Test func checkConfigCommand() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/stopsheetd.conf"
        try "# two mistakes\nSTOPSHEETD_DEMO=true\nSTOPSHEETD_ALERT_URL=https://example.invalid/alerts\nSTOPSHEETD_ALERTS_INTERVAL=soon\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let bad = try runProcess(DaemonProcess.binary, ["--check-config", "--config", path])
        #expect(bad.status == 1)
        #expect(bad.stdout == "")
        #expect(bad.stderr == """
            \(path):3: warning: unknown key STOPSHEETD_ALERT_URL, ignored (did you mean STOPSHEETD_ALERTS_URL?)
            \(path):4: STOPSHEETD_ALERTS_INTERVAL: 'soon' is not a number of seconds between 1 and 604800
            stopsheetd: configuration has errors (1 error, 1 warning)

            """)
        try "STOPSHEETD_DEMO=true\nSTOPSHEETD_ALERTS_INTERVAL=30\n".write(toFile: path, atomically: true, encoding: .utf8)
        let good = try runProcess(DaemonProcess.binary, ["--check-config", "--config", path])
        #expect(good.status == 0 && good.stderr == "stopsheetd: configuration OK\n")
        let missing = try runProcess(DaemonProcess.binary, ["--check-config", "--demo", "--config", directory + "/none.conf"])
        #expect(missing.status == 1 && missing.stderr.hasPrefix("\(directory)/none.conf: cannot read this config file"))
    }

    /// The real binary: a socket in a missing directory, or with a path too long for a socket
    /// address, is an error of `--check-config` in the very words the start refuses it with, exit
    /// 1 as the start's; a runtime directory directly in /run, which the start would make,
    /// passes. Neither check makes a directory.
    @Test func aSocketPathTheStartRefusesIsReportedInItsWords() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("STOPSHEETD_") && !["NOTIFY_SOCKET", "LISTEN_FDS"].contains($0.key) }
        let missing = "socket directory \(directory)/missing does not exist; stopsheetd makes only a runtime directory directly in /run (such as /run/stopsheetd), so create this one first"
        let long = directory + "/" + String(repeating: "s", count: 120) + ".sock"
        for (socket, expected) in [(directory + "/missing/x.sock", missing), (long, "socket path \"\(long)\" is longer than")] {
            let checked = try runProcess(DaemonProcess.binary, ["--check-config", "--demo", "--socket", socket], environment: environment)
            let logPath = directory + "/start.log"
            let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            try #require(log >= 0)
            let start = try ChildProcess(DaemonProcess.binary, ["--demo", "--socket", socket], environment: environment, stderr: log)
            close(log)
            let started = start.wait(seconds: 60)
            if started == nil { start.signal(SIGKILL); start.wait() }
            let startLog = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            let lines = checked.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(checked.status == 1 && lines.count == 3 && lines[0].hasPrefix(expected) && lines[1] == "stopsheetd: configuration has errors (1 error)",
                    "status \(checked.status), stderr: \(checked.stderr)")
            #expect(started == 1 && startLog.contains(lines[0]), "start: \(started.map(String.init) ?? "still serving after 60 s"); \(startLog)")
        }
        #expect(access(directory + "/missing", F_OK) != 0, "\(directory)/missing was made")

        let runtime = "/run/stopsheetd-check-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let runtimeChecked = try runProcess(DaemonProcess.binary, ["--check-config", "--demo", "--socket", runtime + "/x.sock"], environment: environment)
        #expect(runtimeChecked.status == 0 && runtimeChecked.stderr == "stopsheetd: configuration OK\n", "status \(runtimeChecked.status), stderr: \(runtimeChecked.stderr)")
        #expect(access(runtime, F_OK) != 0, "\(runtime) was made by a check")
    }

    /// The real daemon: an unknown key is one warning naming file and line at start and one on each
    /// reload, and the daemon serves; a bad value in the file stops the start, naming the line.
    @Test func warningsAtStartAndReload() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/stopsheetd.conf"
        try "STOPSHEETD_DEMO=true\nSTOPSHEETD_ALERT_URL=https://example.invalid/alerts\n".write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--config", path])
        let warning = "\(path):2: warning: unknown key STOPSHEETD_ALERT_URL, ignored (did you mean STOPSHEETD_ALERTS_URL?)"
        #expect(daemon.stderrText().components(separatedBy: warning).count - 1 == 1)
        #expect(try daemon.result("version")["name"] == "stopsheetd")
        kill(daemon.pid, SIGHUP)
        #expect(daemon.notifications.waitFor({ $0.contains("READY=1") }, timeout: patience) != nil)
        #expect(daemon.stderrText().components(separatedBy: warning).count - 1 == 2)

        try "STOPSHEETD_DEMO=true\nSTOPSHEETD_MAX_BATCH=lots\n".write(toFile: path, atomically: true, encoding: .utf8)
        let refused = try runProcess(DaemonProcess.binary, ["--config", path, "--socket", directory + "/unused.sock"])
        #expect(refused.status == 2)
        #expect(refused.stderr == "stopsheetd: \(path):2: STOPSHEETD_MAX_BATCH: 'lots' is not a whole number between 1 and 1073741824\n")
    }

    /// The real binary: a local source whose body would not load is an error of the check (the
    /// daemon would retry it forever), named by file, line and column; a feed that loads with
    /// notices is OK; a file not there yet is a warning.
    @Test func aLocalSourceIsReadAsTheDaemonWould() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "stop_code,parent_station\n1,\n".write(toFile: directory + "/stops.txt", atomically: true, encoding: .utf8)
        let bad = try runProcess(DaemonProcess.binary, ["--check-config", "--demo", "--stations-url", "file://" + directory])
        #expect(bad.status == 1)
        #expect(bad.stderr == """
            --stations-url file://\(directory) would not load: malformed upstream data at stops.txt line 1 column stop_id: no such column in the header
            stopsheetd: configuration has errors (1 error)

            """)
        let notices = try runProcess(DaemonProcess.binary, ["--check-config", "--demo", "--stations-url", "file://" + GTFSFeeds.tests + "/Fixtures/gtfs-quirks/notices"])
        #expect(notices.status == 0 && notices.stderr == "stopsheetd: configuration OK\n")
        let absent = try runProcess(DaemonProcess.binary, ["--check-config", "--demo", "--stations-url", "file://" + directory + "/feed.zip"])
        #expect(absent.status == 0 && absent.stderr.hasPrefix("warning: --stations-url file://\(directory)/feed.zip cannot be read now: "))
    }
}
