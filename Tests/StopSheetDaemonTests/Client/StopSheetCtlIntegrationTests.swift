import Foundation
import Glibc
import StopSheetCore
import Testing

/// stopsheetctl as people and scripts use it: the real binary against the real demo daemon (or a
/// local upstream serving hostile text), its output compared whole.
@Suite struct StopSheetCtlIntegrationTests {
    /// Runs stopsheetctl with `COLUMNS` set (nil: unset) and no `STOPSHEETD_SOCKET` of the caller's.
    static func ctl(_ arguments: [String], columns: Int? = 80) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment.filter { $0.key != "COLUMNS" && $0.key != "STOPSHEETD_SOCKET" }
        if let columns { environment["COLUMNS"] = String(columns) }
        return try runProcess(DaemonProcess.ctlBinary, arguments, environment: environment)
    }

    /// The demo's alert times follow the daemon's start-up: only those are normalised. An end on
    /// the start's day prints as a bare clock time, on another day with its date; which one depends
    /// on the time of day the test runs, so both become `<time>`.
    static func normalisingTimes(_ text: String) -> String {
        let moment = #"(Mon|Tue|Wed|Thu|Fri|Sat|Sun) [0-9]{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}"#
        return text.replacingOccurrences(of: moment, with: "<time>", options: .regularExpression)
            .replacingOccurrences(of: "– [0-9]{2}:[0-9]{2}", with: "– <time>", options: .regularExpression)
    }

    /// Every line fits, but a link, which is never cut (`Page.link`).
    static func expectFits(_ text: String, columns: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop(while: { $0 == " " })
            if trimmed.hasPrefix("http"), !trimmed.contains(" ") { continue }
            #expect(line.count <= columns, "\(line.count) columns: \(line)", sourceLocation: sourceLocation)
        }
    }

    // MARK: the command line

    /// Issue 14: options without a command trapped (exit 132, a Swift fatal error and a backtrace).
    @Test(arguments: [
        ["--json"], ["--socket", "run/stopsheetd.sock"], ["--timeout", "5"], [], ["--timeout"], ["--socket"],
        ["--json", "--json"], ["-"], ["--"], ["--", "--json"], ["--bogus"], ["-x", "health"], ["sheet"], ["sheet", "1", "2"],
        ["sheet", "--name"], ["station"], ["alerts", "1", "2"], ["call"],
        ["call", "version", "not json"], ["--timeout", "abc", "health"], ["--timeout", "nan", "health"],
        ["--timeout", "-1", "health"], ["--timeout", "0", "health"], ["--json=yes", "health"], ["--bus", "station", "40380"],
        ["dance"], ["help", "dance"], ["health", "now"], ["refresh", "alerts", "stations"],
    ])
    func aCommandLineThatDoesNotFitIsAUsageError(arguments: [String]) throws {
        let result = try Self.ctl(["--socket", "/nonexistent/stopsheetd.sock"] + arguments)
        #expect(result.status == 2, "\(arguments): \(result.status) \(result.stderr.prefix(300))")
        #expect(result.stderr.contains("stopsheetctl: "))
        #expect(!result.stderr.contains("Fatal error"))
    }

    @Test func underJSONAUsageErrorIsAJSONErrorObjectToo() throws {
        let result = try Self.ctl(["--json", "--timeout"])
        #expect(result.status == 2)
        let error = try JSONParser.parse(result.stdout.trimmingCharacters(in: .newlines))
        #expect(error["code"] == .null)
        #expect(error["message"]?.stringValue?.contains("--timeout") == true)
    }

    @Test func helpAndVersion() throws {
        for arguments in [["--help"], ["-h"], ["help"], ["help", "sheet"], ["sheet", "--help"]] {
            let help = try Self.ctl(arguments)
            #expect(help.status == 0, "\(arguments)")
            #expect(help.stdout.hasPrefix("Usage: stopsheetctl "), "\(arguments)")
            Self.expectFits(help.stdout, columns: 80)
        }
        let full = try Self.ctl(["help"]).stdout
        for name in ["sheet", "station", "alerts", "health", "version", "refresh", "call", "help", "--socket", "--timeout", "--json", "--bus", "--name", "--version"] {
            #expect(full.contains(name), "help does not mention \(name)")
        }
        #expect(try Self.ctl(["help", "sheet"]).stdout.contains("--bus"))
        let version = try Self.ctl(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "stopsheetctl \(StopSheetVersion.current)\n")
    }

    // MARK: the demo, as people read it

    @Test func theDemoSheetStationAndAlertsOf40380At80Columns() throws {
        let daemon = try DaemonProcess(["--demo"])
        let sheet = try Self.ctl(["--socket", daemon.socketPath, "sheet", "40380"])
        #expect(sheet.status == 0)
        #expect(Self.normalisingTimes(sheet.stdout) == """
        Clark/Lake (Blue Line, Brown Line, Green Line, Orange Line, Purple Line Express,
          Pink Line) 40380
        8 train service alerts · step-free access

        Train service alerts
          Active train alert: UIC-Halsted Station Peoria Entrance Temporary Closure
            <time> – until further notice
            The Peoria entrance to UIC-Halsted is temporarily closed. Enter/exit the
            UIC-Halsted station thru the Halsted or Morgan entrances.

          Active train alert: Brown and Red Line Delays
            <time> – until further notice
            Some Brown and Red Line trains are operating with residual delays after an
            earlier minor fire at track level near Sedgwick.

          Planned train alert: Boarding Change, Delays Between Grand and LaSalle
            <time> – <time>
            Blue LIne trains will operate on the same track between Grand and LaSalle,
            resulting in boarding changes and minor delays.

          Planned train alert: Boarding Change, Delays Between Grand and LaSalle
            <time> – <time>
            Blue LIne trains will operate on the same track between Grand and LaSalle,
            resulting in boarding changes and minor delays.

          Planned train alert: Boarding Change, Delays Between Grand and LaSalle
            <time> – <time>
            Blue LIne trains will operate on the same track between Grand and LaSalle,
            resulting in boarding changes and minor delays.

          Planned train alert: Boarding Change, Delays Between Grand and LaSalle
            <time> – <time>
            Blue LIne trains will operate on the same track between Grand and LaSalle,
            resulting in boarding changes and minor delays.

          Planned train alert: Boarding Change, Delays Between Grand and LaSalle
            <time> – <time>
            Blue LIne trains will operate on the same track between Grand and LaSalle,
            resulting in boarding changes and minor delays.

          Planned train alert: Boarding Change, Delays Between Armitage and Merchandise
            Mart
            <time> – <time>
            Brown Line trains will operate on the same track between Armitage and
            Merchandise Mart, resulting in boarding changes and minor delays

        Accessibility
          Step-free access is available at Clark/Lake.
          Step-free now: available (as reported; no pathways)

        """)
        let station = try Self.ctl(["--socket", daemon.socketPath, "station", "40380"])
        #expect(station.status == 0)
        #expect(station.stdout == """
        Clark/Lake (Blue Line, Brown Line, Green Line, Orange Line, Purple Line Express,
          Pink Line) 40380
        step-free access

        Platforms
          30374  southbound  step-free  Blue Line
          30375  northbound  step-free  Blue Line
          30074  eastbound   step-free  Green Line, Orange Line, Purple Line Express,
                                        Pink Line
          30075  westbound   step-free  Brown Line, Green Line

          Step-free now: available (as reported; no pathways)

        """)
        let alerts = try Self.ctl(["--socket", daemon.socketPath, "alerts", "40380"])
        #expect(alerts.status == 0)
        #expect(Self.normalisingTimes(alerts.stdout) == """
        Clark/Lake (Blue Line, Brown Line, Green Line, Orange Line, Purple Line Express,
          Pink Line) 40380
        8 train service alerts for this station

        Active train alert: UIC-Halsted Station Peoria Entrance Temporary Closure
          <time> – until further notice
          Blue Line · Special Note · severity 12 · alert 23322
          The Peoria entrance to UIC-Halsted is temporarily closed. Enter/exit the
          UIC-Halsted station thru the Halsted or Morgan entrances.
        http://www.transitchicago.com/travel_information/alert_detail.aspx?AlertId=23322

        Active train alert: Brown and Red Line Delays
          <time> – until further notice
          Red Line · Brown Line · Significant Delays · severity 60 · alert 27068
          Some Brown and Red Line trains are operating with residual delays after an
          earlier minor fire at track level near Sedgwick.
        http://www.transitchicago.com/travel_information/alert_detail.aspx?AlertId=27068

        Planned train alert: Boarding Change, Delays Between Grand and LaSalle
          <time> – <time>
          Blue Line · Planned Work · severity 25 · alert 27037
          Blue LIne trains will operate on the same track between Grand and LaSalle,
          resulting in boarding changes and minor delays.
        http://www.transitchicago.com/travel_information/alert_detail.aspx?AlertId=27037

        Planned train alert: Boarding Change, Delays Between Grand and LaSalle
          <time> – <time>
          Blue Line · Planned Work · severity 25 · alert 27038
          Blue LIne trains will operate on the same track between Grand and LaSalle,
          resulting in boarding changes and minor delays.
        http://www.transitchicago.com/travel_information/alert_detail.aspx?AlertId=27038

        Planned train alert: Boarding Change, Delays Between Grand and LaSalle
          <time> – <time>
          Blue Line · Planned Work · severity 25 · alert 27039
          Blue LIne trains will operate on the same track between Grand and LaSalle,
          resulting in boarding changes and minor delays.
        http://www.transitchicago.com/travel_information/alert_detail.aspx?AlertId=27039

        Planned train alert: Boarding Change, Delays Between Grand and LaSalle
          <time> – <time>
          Blue Line · Planned Work · severity 25 · alert 27040
          Blue LIne trains will operate on the same track between Grand and LaSalle,
          resulting in boarding changes and minor delays.
        http://www.transitchicago.com/travel_information/alert_detail.aspx?AlertId=27040

        Planned train alert: Boarding Change, Delays Between Grand and LaSalle
          <time> – <time>
          Blue Line · Planned Work · severity 25 · alert 27041
          Blue LIne trains will operate on the same track between Grand and LaSalle,
          resulting in boarding changes and minor delays.
        http://www.transitchicago.com/travel_information/alert_detail.aspx?AlertId=27041

        Planned train alert: Boarding Change, Delays Between Armitage and Merchandise
          Mart
          <time> – <time>
          Brown Line · Planned Work · severity 25 · alert 27043
          Brown Line trains will operate on the same track between Armitage and
          Merchandise Mart, resulting in boarding changes and minor delays
        http://www.transitchicago.com/travel_information/alert_detail.aspx?AlertId=27043

        """)
        for output in [sheet, station, alerts] { Self.expectFits(output.stdout, columns: 80) }
        // The demo's five same-headlined alerts (five days of the same work) read as five.
        let lines = sheet.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let dates = zip(lines, lines.dropFirst()).filter { $0.0.hasSuffix("Delays Between Grand and LaSalle") }.map(\.1)
        #expect(dates.count == 5 && Set(dates).count == 5, "\(dates)")
    }

    @Test func outputWrapsToTheWidthGivenAndTellsSameNamedStationsApart() throws {
        let daemon = try DaemonProcess(["--demo"])
        for columns in [40, 60, 132] {
            for command in [["sheet", "40380"], ["station", "40380"], ["alerts", "40380"], ["alerts"], ["health"], ["help"]] {
                let result = try Self.ctl(["--socket", daemon.socketPath] + command, columns: columns)
                #expect(result.status == 0)
                Self.expectFits(result.stdout, columns: command == ["help"] ? 80 : columns)
            }
        }
        // Five stations are called Western; the header says which line each is on.
        let westerns = try ["40220", "40310", "40670", "40740", "41480"].map { id in
            try Self.ctl(["--socket", daemon.socketPath, "sheet", id]).stdout.split(separator: "\n").first.map(String.init) ?? ""
        }
        #expect(Set(westerns).count == 5, "\(westerns)")
        #expect(westerns.contains("Western (Blue Line) 40220"), "\(westerns)")
        // `stations NAME` lists them together, by name then id, with lines and step-free access.
        let listed = try Self.ctl(["--socket", daemon.socketPath, "stations", "western"])
        #expect(listed.status == 0)
        #expect(listed.stdout == """
            40220 Western (Blue Line) · no step-free access
            40310 Western (Orange Line) · step-free access
            40670 Western (Blue Line) · step-free access
            40740 Western (Pink Line) · step-free access
            41480 Western (Brown Line) · step-free access

            """)
        let all = try Self.ctl(["--socket", daemon.socketPath, "stations"], columns: 40)
        #expect(all.stdout.hasPrefix("40830 18th (Pink Line) · step-free\n      access\n"), "\(all.stdout.prefix(200))")
        Self.expectFits(all.stdout, columns: 40)
        let none = try Self.ctl(["--socket", daemon.socketPath, "stations", "Atlantis"])
        #expect(none.status == 0 && none.stdout == "No station's name contains \u{201C}Atlantis\u{201D}.\n")
    }

    /// What the accessibility issue added beside the spec's strings reaches people too: the
    /// advisory under its own heading, and data that never loaded or is old said in words.
    @Test func advisoriesAndDataThatIsMissingOrOld() throws {
        let daemon = try DaemonProcess(["--demo"])
        let sheet = try Self.ctl(["--socket", daemon.socketPath, "sheet", "40630"]).stdout
        let advisories = try #require(sheet.range(of: "\nAccessibility advisories\n"), "\(sheet)")
        #expect(sheet[advisories.upperBound...].hasPrefix("  Active: Clark/Division Station Platform Access\n"), "\(sheet)")
        #expect(sheet.contains("Step-free access is available at Clark/Division."), "the spec's sentence stays")
        #expect(!sheet.contains("has not loaded") && !sheet.contains("out of date"), "\(sheet)")

        let noStations = try DaemonProcess(["--demo", "--stations-url", "file:///nonexistent/stops.csv"]) { $0.contains("stations failing") }
        _ = try noStations.typedClient().waitUntilLoaded(.alerts, timeout: .seconds(patience))
        #expect(try noStations.result("health")["alerts"]?["loaded"] == true)
        let early = try Self.ctl(["--socket", noStations.socketPath, "sheet", "40380", "--name", "Clark/Lake"]).stdout
        #expect(early.contains("Station data has not loaded yet."), "\(early)")
        #expect(!early.contains("Train alert data"), "\(early)")

        let stale = try DaemonProcess(["--demo", "--alerts-stale-after", "1"])
        // The daemon's own word that the alerts turned stale, pushed to a subscriber, not a sleep.
        let watcher = try stale.typedClient()
        _ = try watcher.subscribe(stopIds: ["40380"])
        var turnedStale = try stale.result("stopSheet", ["stopId": "40380"])["data"]?["alerts"]?["stale"] == true
        while !turnedStale {
            guard case .stopSheetChanged(let change) = try watcher.nextNotification(timeout: .seconds(patience)) else { continue }
            turnedStale = change.json["sheet"]?["data"]?["alerts"]?["stale"] == true
        }
        #expect(try stale.result("stopSheet", ["stopId": "40380"])["data"]?["alerts"]?["stale"] == true)
        let old = try Self.ctl(["--socket", stale.socketPath, "sheet", "40380"]).stdout
        #expect(old.range(of: #"Train alert data is out of date \(loaded [0-9]+ s ago\)\."#, options: .regularExpression) != nil, "\(old)")
    }

    // MARK: scripts

    @Test func jsonIsTheBareResultOrAJSONErrorObject() throws {
        let daemon = try DaemonProcess(["--demo"])
        let sheet = try Self.ctl(["--socket", daemon.socketPath, "--json", "sheet", "40380"])
        #expect(sheet.status == 0)
        #expect(try JSONParser.parse(sheet.stdout.trimmingCharacters(in: .newlines)).comparableSheet == (try daemon.result("stopSheet", ["stopId": "40380"])).comparableSheet)
        #expect(sheet.stdout.filter { $0 == "\n" }.count == 1)
        let unknown = try Self.ctl(["--socket", daemon.socketPath, "--json", "sheet", "49999"])
        #expect(unknown.status == 1)
        #expect(try JSONParser.parse(unknown.stdout.trimmingCharacters(in: .newlines)) == ["code": -32001, "message": "Unknown stop", "data": "49999"])
        let unreachable = try Self.ctl(["--socket", daemon.directory + "/nothing.sock", "--json", "health"])
        #expect(unreachable.status == 3)
        let error = try JSONParser.parse(unreachable.stdout.trimmingCharacters(in: .newlines))
        #expect(error["code"] == .null)
        #expect(error["message"]?.stringValue?.contains("nothing.sock") == true)
        let called = try Self.ctl(["--socket", daemon.socketPath, "call", "station", #"{"stopId":"40380"}"#])
        #expect(try JSONParser.parse(called.stdout.trimmingCharacters(in: .newlines)) == (try daemon.result("station", ["stopId": "40380"])))
    }

    @Test func exitStatusesAndHints() throws {
        let daemon = try DaemonProcess(["--demo"])
        let socket = ["--socket", daemon.socketPath]
        let bus = try Self.ctl(socket + ["sheet", "1106"])
        #expect(bus.status == 1)
        #expect(bus.stderr.contains("Unknown stop (-32001): 1106"))
        #expect(bus.stderr.contains("hint: is this a bus stop? try --bus"))
        let train = try Self.ctl(socket + ["sheet", "49999"])
        #expect(train.status == 1)
        #expect(!train.stderr.contains("bus"), "a train id gets no bus hint: \(train.stderr)")
        #expect(try Self.ctl(socket + ["station", "1106"]).stderr.contains("is this a bus stop?"))
        let busSheet = try Self.ctl(socket + ["sheet", "--bus", "1106"])
        #expect(busSheet.status == 0)
        #expect(busSheet.stdout.hasPrefix("Bus stop 1106: "))
        #expect(try Self.ctl(socket + ["health"]).status == 0)
        #expect(try Self.ctl(socket + ["version"]).stdout.contains("stopsheetd"))
        let absent = try Self.ctl(["--socket", daemon.directory + "/nothing.sock", "health"])
        #expect(absent.status == 3)
        #expect(absent.stderr.contains("is stopsheetd running?"))
        let typo = try Self.ctl(socket + ["staton", "40380"])
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("did you mean 'station'?"))
    }

    @Test func healthThatIsNotReadyExitsFour() throws {
        let daemon = try DaemonProcess(["--alerts-url", "file:///nonexistent/alerts.json", "--stations-url", "file:///nonexistent/stops.csv"],
                                       until: { _ in true })
        let health = try Self.ctl(["--socket", daemon.socketPath, "health"])
        #expect(health.status == 4, "\(health.stdout)")
        #expect(health.stdout.contains("status: "))
    }

    // MARK: hostile upstream text

    /// Everything a terminal obeys: an OSC retitle ended by BEL, CR, BS, NUL, a C1 CSI (U+009B)
    /// clearing the screen, a right-to-left override and isolate, DEL, a line separator.
    static let hostile = "A\u{1B}]0;owned\u{07}B\rC\u{08}D\u{00}E\u{9B}2JF\u{202E}G\u{2066}H\u{7F}I\u{2028}J"
    static let raw: [Unicode.Scalar] = ["\u{1B}", "\u{07}", "\r", "\u{08}", "\u{00}", "\u{9B}", "\u{202E}", "\u{2066}", "\u{7F}", "\u{2028}"]

    @Test func upstreamTextNeverReachesTheTerminalRaw() throws {
        let upstream = try Upstream.shared()
        let key = "ctl-hostile-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let stops: JSON = ["stops": [["stopId": "30001", "stationId": "40001", "stationName": .string("Evil " + Self.hostile),
                                      "routes": ["Red"], "stepFree": true, "direction": "N"]]]
        let alerts: JSON = ["alerts": [
            ["id": "1", "status": "active", "headline": .string("Headline " + Self.hostile),
             "description": .string("First " + Self.hostile + "\nsecond line"),
             "scopes": [["type": "station", "id": "40001"]], "start": "2015-02-14T14:35:00-06:00"],
            ["id": "2", "status": "planned", "headline": "Weekend work", "description": "",
             "scopes": [["type": "route", "id": "Red"]], "start": "2099-07-04T10:00:00-05:00", "end": "2099-07-04T16:30:00-05:00"],
            ["id": "3", "status": "planned", "headline": "New Year", "description": "",
             "scopes": [["type": "systemwide"]], "start": "2099-12-31T23:30:00Z"],
        ]]
        try upstream.set(key: key + "-stops", body: stops.encodedString)
        try upstream.set(key: key + "-alerts", body: alerts.encodedString)
        let daemon = try DaemonProcess(["--alerts-url", upstream.url("/dyn/\(key)-alerts"), "--stations-url", upstream.url("/dyn/\(key)-stops")])
        let served = try daemon.result("stopSheet", ["stopId": "40001"])
        try #require(served["stationName"]?.stringValue?.unicodeScalars.contains("\u{1B}") == true,
                     "the daemon no longer passes control characters on: this test then proves nothing about stopsheetctl")

        for command in [["sheet", "40001"], ["station", "40001"], ["alerts", "40001"], ["alerts"], ["health"],
                        ["--json", "sheet", "40001"], ["--json", "alerts"], ["call", "station", #"{"stopId":"40001"}"#]] {
            let result = try Self.ctl(["--socket", daemon.socketPath] + command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            let output = result.stdout.unicodeScalars
            for scalar in Self.raw {
                #expect(!output.contains(scalar), "\(command) printed U+\(String(scalar.value, radix: 16)) raw")
            }
            // No other control character either, newline apart.
            #expect(!output.contains { $0.value < 0x20 && $0 != "\n" }, "\(command)")
        }
        let sheet = try Self.ctl(["--socket", daemon.socketPath, "sheet", "40001"]).stdout
        // Shown, not obeyed (the daemon itself reads CR and U+2028 in a station name as spaces).
        #expect(sheet.hasPrefix(#"Evil A\x1b]0;owned\x07B C\x08D\x00E\x9b2JFU+202EGU+2066H\x7fI J (Red Line) 40001"#), "\(sheet)")
        #expect(sheet.contains(#"A\x1b]0;owned\x07B\x0dC\x08D\x00E\x9b2JFU+202EGU+2066H\x7fIU+2028J"#), "\(sheet)")
        // The description's own newline still breaks the line.
        #expect(sheet.contains("IU+2028J\n    second line\n"), "\(sheet)")
        // --json is exact JSON: parsed back, the very strings the daemon sent.
        let json = try Self.ctl(["--socket", daemon.socketPath, "--json", "sheet", "40001"]).stdout
        #expect(try JSONParser.parse(json.trimmingCharacters(in: .newlines)).comparableSheet == served.comparableSheet)
        #expect(json.contains(#"\u001b"#) && json.contains(#"\u009b"#) && json.contains(#"\u202e"#) && json.contains(#"\u2028"#))

        // Dates in the agency's zone (Chicago's, for CTA): the wall clock of the ISO strings, before their offsets.
        let all = try Self.ctl(["--socket", daemon.socketPath, "alerts"]).stdout
        #expect(all.contains("\n  Sat 14 Feb 2015 14:35 – until further notice\n"), "\(all)")
        #expect(all.contains("\n  Sat 4 Jul 2099 10:00 – 16:30\n"), "\(all)")
        #expect(all.contains("\n  Thu 31 Dec 2099 17:30 – until further notice\n"), "\(all)")
        #expect(all.contains("\n  all lines · alert 3\n"), "\(all)")
    }

    // MARK: at a terminal

    /// Without `COLUMNS`, the width is the terminal's own; on a pipe, 80.
    @Test func theWidthIsTheTerminalsWhenStdoutIsOne() throws {
        let daemon = try DaemonProcess(["--demo"])
        let terminal = try PseudoTerminal(columns: 50)
        let environment = ProcessInfo.processInfo.environment.filter { $0.key != "COLUMNS" }
        let child = try ChildProcess(DaemonProcess.ctlBinary, ["--socket", daemon.socketPath, "sheet", "40380"],
                                     environment: environment, stdout: terminal.slave)
        terminal.closeSlave()
        let output = terminal.readAll()
        #expect(child.wait() == 0)
        #expect(output.hasPrefix("Clark/Lake (Blue Line, Brown Line, Green Line,\n"), "\(output)")
        Self.expectFits(output, columns: 50)
        let piped = try Self.ctl(["--socket", daemon.socketPath, "sheet", "40380"], columns: nil)
        #expect(piped.stdout.hasPrefix("Clark/Lake (Blue Line, Brown Line, Green Line, Orange Line, Purple Line Express,\n"))
        Self.expectFits(piped.stdout, columns: 80)
    }

    /// `make run` on a terminal: log lines without `<N>` priority prefixes (only the journal's
    /// stream gets them: DaemonStartupIntegrationTests).
    @Test func theDaemonLogsWithoutPriorityPrefixesToATerminal() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let terminal = try PseudoTerminal(columns: 80)
        let environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("STOPSHEETD_") && !["NOTIFY_SOCKET", "LISTEN_FDS", "WATCHDOG_USEC", "JOURNAL_STREAM"].contains($0.key)
        }
        let daemon = try ChildProcess(DaemonProcess.binary, ["--demo", "--socket", directory + "/d.sock", "--log-level", "info"],
                                      environment: environment, stderr: terminal.slave)
        terminal.closeSlave()
        defer { daemon.signal(SIGKILL); daemon.wait() }
        // Its own "ready" line is the signal that it has logged its start-up.
        var log = ""
        while !log.contains("STOPSHEET_EVENT=ready"), let chunk = terminal.read() { log += chunk }
        daemon.signal(SIGTERM)
        log += terminal.readAll()
        #expect(daemon.wait() == 0)
        let lines = log.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("ready ") }, "\(log)")
        #expect(!lines.contains { $0.hasPrefix("<") }, "\(log)")
    }
}
