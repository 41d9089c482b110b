import Foundation
import Glibc
import StopSheetCore
import Testing

/// Issue 18's hints and errors, each as a person met it: the real stopsheetctl against a real
/// demo daemon (or none, where the point is that it never asks one).
@Suite struct CtlHintsIntegrationTests {
    static let nowhere = ["--socket", "/nonexistent/stopsheetd.sock"]

    func ctl(_ arguments: [String], columns: Int? = 80) throws -> ProcessResult { try StopSheetCtlIntegrationTests.ctl(arguments, columns: columns) }

    @Test func aStationNameWhereAStopIDGoesGetsTheStationsIDNotABusHint() throws {
        let daemon = try DaemonProcess(["--demo"])
        let socket = ["--socket", daemon.socketPath]
        for (command, name) in [("sheet", "Clark/Lake"), ("station", "Clark/Lake"), ("alerts", "clark/lake")] {
            let result = try ctl(socket + [command, name])
            #expect(result.status == 1, "\(command) \(name): \(result.status)")
            #expect(result.stderr.contains("hint: did you mean 40380 Clark/Lake? A STOP_ID is a number: stopsheetctl \(command) 40380"),
                    "\(command) \(name): \(result.stderr)")
            #expect(!result.stderr.contains("bus"), "\(command) \(name): \(result.stderr)")
        }
        // Five stations are called Western: all are offered, told apart by their lines.
        let western = try ctl(socket + ["sheet", "Western"])
        #expect(western.stderr.contains("did you mean 40220 Western (Blue Line), 40310 Western (Orange Line),"), "\(western.stderr)")
        // A bus stop id is a number: a name given as one is refused, with the station it names.
        let bus = try ctl(socket + ["sheet", "--bus", "Clark/Lake"])
        #expect(bus.status == 2 && bus.stdout.isEmpty, "\(bus.status) \(bus.stdout)")
        #expect(bus.stderr.contains("'Clark/Lake' is not a bus stop id: bus stop ids are numbers; did you mean 40380 Clark/Lake?"), "\(bus.stderr)")
        let hello = try ctl(socket + ["sheet", "--bus", "hello world"])
        #expect(hello.status == 2 && hello.stderr.contains("is not a bus stop id"), "\(hello.status) \(hello.stderr)")
        // A real bus stop id still works, and a digit string that is no train id still gets the bus hint.
        #expect(try ctl(socket + ["sheet", "--bus", "1106"]).status == 0)
        #expect(try ctl(socket + ["sheet", "1106"]).stderr.contains("is this a bus stop? try --bus"))
    }

    /// Another agency's ids are not numbers (MBTA's `place-ogmnl`): the hint never says they
    /// are, and it finds a station by a mistyped id as by a name.
    @Test func hintsFitIdsThatAreNotNumbers() throws {
        let work = try AnyAgencyIntegrationTests.work()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let daemon = try AnyAgencyIntegrationTests.daemon(stations: AnyAgencyIntegrationTests.fixture, alerts: work + "/alerts.pb")
        defer { _ = daemon.stop() }
        let socket = ["--socket", daemon.socketPath]
        let unknown = try ctl(socket + ["sheet", "place-ogmnl"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("hint: no station has that id or a name like it; stopsheetctl stations NAME finds a station's id"), "\(unknown.stderr)")
        let mistyped = try ctl(socket + ["station", "place-nort"])
        #expect(mistyped.stderr.contains("hint: did you mean place-north North Station? A STOP_ID is a station's or a stop's id: stopsheetctl station place-north"),
                "\(mistyped.stderr)")
        let named = try ctl(socket + ["alerts", "haymarket"])
        #expect(named.stderr.contains("hint: did you mean place-hymnl Haymarket?"), "\(named.stderr)")
        for result in [unknown, mistyped, named] { #expect(!result.stderr.contains("is a number"), "\(result.stderr)") }
    }

    @Test func nameWithBusIsAUsageErrorNotSilentlyIgnored() throws {
        let result = try ctl(Self.nowhere + ["sheet", "--bus", "1106", "--name", "Clark/Lake"])
        #expect(result.status == 2, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("--name is a train station's name"), "\(result.stderr)")
    }

    @Test func jsonStationsNameFiltersAsTheTextDoes() throws {
        let daemon = try DaemonProcess(["--demo"])
        let json = try ctl(["--socket", daemon.socketPath, "--json", "stations", "clark"])
        #expect(json.status == 0)
        let result = try JSONParser.parse(json.stdout.trimmingCharacters(in: .newlines))
        let ids = Set((result["stations"]?.arrayValue ?? []).compactMap { $0["stationId"]?.stringValue })
        let text = try ctl(["--socket", daemon.socketPath, "stations", "clark"]).stdout
        let textIDs = Set(text.split(separator: "\n").filter { $0.first?.isNumber == true }.map { String($0.prefix(5)) })
        #expect(ids == textIDs && ids.contains("40380") && ids.count < 10, "--json: \(ids.sorted()), text: \(textIDs.sorted())")
        #expect(result["count"]?.intValue == ids.count, "\(result["count"] ?? .null)")
    }

    @Test func aFailedRefreshExitsNonZeroAndSaysWhy() throws {
        let daemon = try DaemonProcess(["--demo", "--alerts-url", "file:///nonexistent/alerts.json"]) { $0.contains("alerts failing") && !$0.hasPrefix("serving no stations") }
        let failed = try ctl(["--socket", daemon.socketPath, "refresh", "alerts"])
        #expect(failed.status == 1, "\(failed.status) \(failed.stdout)")
        #expect(failed.stdout.contains("consecutiveFailures: "), "the entry is still shown: \(failed.stdout)")
        #expect(failed.stderr.contains("stopsheetctl: alerts refresh failed: "), "\(failed.stderr)")
        let fine = try ctl(["--socket", daemon.socketPath, "refresh", "stations"])
        #expect(fine.status == 0 && fine.stderr.isEmpty, "\(fine.status) \(fine.stderr)")
    }

    /// No daemon is there: the typo is caught before one is asked.
    @Test func aMistypedArgumentGetsADidYouMeanAndExitTwo() throws {
        let result = try ctl(Self.nowhere + ["refresh", "alert"])
        #expect(result.status == 2, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("unknown target 'alert'; did you mean 'alerts'?"), "\(result.stderr)")
        let far = try ctl(Self.nowhere + ["refresh", "everything"])
        #expect(far.status == 2 && far.stderr.contains("(alerts, stations, facilities, all)"), "\(far.stderr)")
    }

    @Test func timeoutZeroSaysItMustBeGreaterThanZero() throws {
        let zero = try ctl(Self.nowhere + ["--timeout", "0", "health"])
        #expect(zero.status == 2)
        #expect(zero.stderr.contains("must be greater than 0") && !zero.stderr.contains("is not a number"), "\(zero.stderr)")
        #expect(try ctl(Self.nowhere + ["--timeout", "soon", "health"]).stderr.contains("'soon' is not a number of seconds"))
    }

    @Test func aForgottenSocketPathSaysSoInsteadOfTheWholeHelp() throws {
        let result = try ctl(["--socket", "version"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--socket needs a value (--socket PATH); 'version' was taken for it"), "\(result.stderr)")
        #expect(!result.stderr.contains("Commands:") && !result.stderr.contains("no command given"), "\(result.stderr)")
    }

    @Test func callParamsJSONSaysWhatJSONWantedThere() throws {
        let result = try ctl(Self.nowhere + ["call", "stopSheet", "{stopId:40380}"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("PARAMS_JSON: not JSON: at offset 1 JSON wants a member name in double quotes or '}', not 's'"), "\(result.stderr)")
        let value = try ctl(Self.nowhere + ["call", "stopSheet", #"{"stopId":Clark}"#])
        #expect(value.stderr.contains("JSON wants a value: a string in double quotes"), "\(value.stderr)")
    }

    @Test func aFailedCallWithoutJSONPrintsOneErrorAndWithJSONOneObject() throws {
        let daemon = try DaemonProcess(["--demo"])
        let plain = try ctl(["--socket", daemon.socketPath, "call", "stopSheet", #"{"stopId":"49999"}"#])
        #expect(plain.status == 1)
        #expect(plain.stdout.isEmpty, "stdout: \(plain.stdout)")
        #expect(plain.stderr.contains("Unknown stop (-32001): 49999"), "\(plain.stderr)")
        let json = try ctl(["--socket", daemon.socketPath, "--json", "call", "stopSheet", #"{"stopId":"49999"}"#])
        #expect(json.status == 1)
        #expect(try JSONParser.parse(json.stdout.trimmingCharacters(in: .newlines)) == ["code": -32001, "message": "Unknown stop", "data": "49999"])
    }

    @Test func callOfAMethodInTheWrongCaseGetsADidYouMean() throws {
        let daemon = try DaemonProcess(["--demo"])
        let result = try ctl(["--socket", daemon.socketPath, "call", "stopsheet"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Method not found (-32601): stopsheet"), "\(result.stderr)")
        #expect(result.stderr.contains("hint: did you mean 'stopSheet'?"), "\(result.stderr)")
    }

    /// The socket's group is whatever the admin made it; the hint reads it off the socket.
    @Test(.enabled(if: geteuid() == 0, "needs root to hand the socket to another group and run as nobody"))
    func thePermissionHintNamesTheSocketsRealGroup() throws {
        let daemon = try DaemonProcess(["--demo"])
        try #require(chmod(daemon.directory, 0o755) == 0)
        let group = try #require(getgrnam("daemon"), "no group 'daemon' here")
        try #require(chown(daemon.socketPath, 0, group.pointee.gr_gid) == 0 && chmod(daemon.socketPath, 0o660) == 0)
        var environment = ProcessInfo.processInfo.environment.filter { $0.key != "STOPSHEETD_SOCKET" }
        environment["COLUMNS"] = "80"
        let result = try runProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", DaemonProcess.ctlBinary,
                                                         "--socket", daemon.socketPath, "health"], environment: environment)
        #expect(result.status == 3, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("hint: the socket is for its group daemon: join it (usermod -aG daemon $USER, then log in again)"), "\(result.stderr)")
    }

    /// CTA's alert links are 80 columns: at 80 they start at the margin rather than run over.
    @Test func alertsOf40380FitEightyColumnsLinksIncluded() throws {
        let daemon = try DaemonProcess(["--demo"])
        let result = try ctl(["--socket", daemon.socketPath, "alerts", "40380"])
        #expect(result.status == 0)
        for line in result.stdout.split(separator: "\n") {
            #expect(line.count <= 80, "\(line.count) columns: \(line)")
        }
        #expect(result.stdout.contains("\nhttp://www.transitchicago.com/travel_information/alert_detail.aspx?AlertId=23322\n"))
        // Wider, they keep their indent.
        #expect(try ctl(["--socket", daemon.socketPath, "alerts", "40380"], columns: 100).stdout
            .contains("\n  http://www.transitchicago.com/travel_information/alert_detail.aspx?AlertId=23322\n"))
    }

    @Test func helpWrapsToANarrowerColumns() throws {
        for arguments in [["--help"], ["help", "watch"]] {
            let help = try ctl(arguments, columns: 60)
            #expect(help.status == 0)
            StopSheetCtlIntegrationTests.expectFits(help.stdout, columns: 60)
            #expect(help.stdout.split(separator: "\n").contains { $0.count > 50 }, "it uses the width: \(help.stdout)")
        }
        StopSheetCtlIntegrationTests.expectFits(try ctl(["--help"], columns: 132).stdout, columns: 80)
    }
}
