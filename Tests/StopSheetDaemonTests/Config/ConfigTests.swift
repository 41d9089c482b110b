import StopSheetCore
import Testing
@testable import StopSheetDaemon

@Suite struct ConfigTests {
    func run(_ arguments: [String], _ environment: [String: String] = [:], file: String? = nil) throws -> Config {
        let action = try Config.load(arguments: arguments, environment: environment, readFile: { _ in file })
        guard case .run(let config) = action else { throw ConfigTestFailure() }
        return config
    }

    struct ConfigTestFailure: Error {}

    func failure(_ arguments: [String], _ environment: [String: String] = [:]) -> String? {
        do {
            _ = try Config.load(arguments: arguments, environment: environment, readFile: { _ in nil })
            return nil
        } catch {
            return error.description
        }
    }

    @Test func defaults() throws {
        let config = try run(["--demo"])
        #expect(config.socketPath == "/run/stopsheetd/stopsheetd.sock")
        #expect(config.alertsInterval == 60 && config.stationsInterval == 3600 && config.httpTimeout == 10)
        #expect(config.logLevel == .notice)
        #expect(config.maxLineBytes == 1 << 20 && config.maxConnections == 1024 && config.maxBatch == 64)
    }

    @Test func flagsWinOverTheEnvironment() throws {
        let environment = ["STOPSHEETD_ALERTS_URL": "file:///env", "STOPSHEETD_STATIONS_URL": "file:///stations", "STOPSHEETD_ALERTS_INTERVAL": "30"]
        let config = try run(["--alerts-url", "file:///flag", "--alerts-interval=5"], environment)
        #expect(config.alertsURL == "file:///flag")
        #expect(config.stationsURL == "file:///stations")
        #expect(config.alertsInterval == 5)
    }

    @Test func everyFlagHasItsVariable() throws {
        let config = try run([], [
            "STOPSHEETD_SOCKET": "/tmp/s.sock", "STOPSHEETD_DEMO": "yes", "STOPSHEETD_HTTP_TIMEOUT": "0.5",
            "STOPSHEETD_STATIONS_INTERVAL": "120", "STOPSHEETD_LOG_LEVEL": "debug",
        ])
        #expect(config.socketPath == "/tmp/s.sock" && config.demo && config.httpTimeout == 0.5)
        #expect(config.stationsInterval == 120 && config.logLevel == .debug)
    }

    @Test func theConfigFileSitsBetweenEnvironmentAndFlags() throws {
        let file = """
            # comment
            ; another
            STOPSHEETD_ALERTS_URL="file:///from-file"
            STOPSHEETD_STATIONS_URL = 'file:///stations-file'
            STOPSHEETD_ALERTS_INTERVAL=45
            not a setting
            """
        let config = try run(["--config", "/etc/x.conf", "--alerts-interval", "9"], ["STOPSHEETD_ALERTS_URL": "file:///env"], file: file)
        #expect(config.alertsURL == "file:///from-file")
        #expect(config.stationsURL == "file:///stations-file")
        #expect(config.alertsInterval == 9)
        #expect(config.configFile == "/etc/x.conf")
        let viaEnvironment = try run([], ["STOPSHEETD_CONFIG": "/etc/x.conf"], file: file)
        #expect(viaEnvironment.alertsInterval == 45)
    }

    /// A config file's settings and problems keep their lines as an editor numbers them (blank
    /// lines, comments and `\r\n` endings counted), with spaces and one pair of quotes taken off
    /// a value: what `--check-config` and a reload's problems point at.
    @Test func aConfigFilesSettingsAndProblemsKeepTheirLines() {
        let text = "# stopsheetd\n\nSTOPSHEETD_LANGUAGE=\"es\"\r\n\n; old\nnot a setting\n\t STOPSHEETD_LANGUAGE = 'fr'  \n9LIVES=1\nSTOPSHEETD_AGENCY_NAME=\"CTA'\n"
        let file = ConfigFile(path: "stopsheetd.conf", text: text)
        #expect(file.settings == [ConfigFile.Setting(key: "STOPSHEETD_LANGUAGE", value: "es", line: 3),
                                  ConfigFile.Setting(key: "STOPSHEETD_LANGUAGE", value: "fr", line: 7),
                                  ConfigFile.Setting(key: "STOPSHEETD_AGENCY_NAME", value: "\"CTA'", line: 9)], "\(file.settings)")
        #expect(file.problems.map(\.line) == [6, 7, 8], "\(file.problems)")
    }

    /// A number of seconds is taken from its least up to a week, both ends included, and a count
    /// up to 2^30; a hair past either end is refused with the range it missed.
    @Test func secondsAndCountsAreTakenUpToTheirBoundsIncluded() throws {
        #expect(try run(["--demo", "--alerts-interval", "604800"]).alertsInterval == 604_800)
        #expect(try run(["--demo", "--alerts-interval", "1"]).alertsInterval == 1)
        #expect(try run(["--demo", "--http-timeout", "0.001"]).httpTimeout == 0.001)
        #expect(failure(["--demo", "--alerts-interval", "604800.5"]) == "--alerts-interval: '604800.5' is not a number of seconds between 1 and 604800")
        #expect(failure(["--demo", "--alerts-interval", "0.999"]) == "--alerts-interval: '0.999' is not a number of seconds between 1 and 604800")
        #expect(failure(["--demo", "--http-timeout", "0"]) == "--http-timeout: '0' is not a number of seconds between 0.001 and 604800")
        #expect(try run(["--demo", "--max-batch", "1073741824"]).maxBatch == 1 << 30)
        #expect(failure(["--demo", "--max-batch", "1073741825"])?.hasPrefix("--max-batch: '1073741825' is not a whole number between ") == true)
    }

    @Test func trainRouteTypesAndAgencyName() throws {
        #expect(try run(["--demo"]).reading == FeedReading())
        #expect(try run(["--demo"]).reading.trainRouteTypes.description == "0-2,5,7,12,100-199,400-499,900-999")
        let config = try run(["--demo", "--train-route-types", "0, 1,100-117"], ["STOPSHEETD_AGENCY_NAME": "The T", "STOPSHEETD_LANGUAGE": "es"])
        #expect(config.reading == FeedReading(language: "es", trainRouteTypes: TrainRouteTypes([0...0, 1...1, 100...117]), agencyName: "The T"))
        #expect(try run([], ["STOPSHEETD_DEMO": "1", "STOPSHEETD_TRAIN_ROUTE_TYPES": "2"]).reading.trainRouteTypes.contains(2))
        for bad in ["", "rail", "1,,2", "5-3", "-1", "1-2-3"] {
            #expect(failure(["--demo", "--train-route-types", bad])?.hasPrefix("--train-route-types: '\(bad)' is not a list of route_types") == true, "\(bad)")
        }
        #expect(failure(["--demo", "--agency-name", ""]) == "--agency-name must not be empty")
    }

    @Test func badInputIsOneLineOfReason() {
        #expect(failure(["--demo", "--bogus"]) == "unknown option '--bogus' (see --help)")
        #expect(failure(["--demo", "--alerts-interval", "0"])?.hasPrefix("--alerts-interval: '0' is not a number of seconds") == true)
        #expect(failure(["--demo", "--alerts-interval"]) == "--alerts-interval needs a value (SECONDS)")
        #expect(failure(["--demo", "--log-level", "loud"])?.hasPrefix("--log-level: 'loud' is not one of") == true)
        #expect(failure(["--demo", "--max-connections", "-1"]) != nil)
        #expect(failure([]) == "no data source: give --alerts-url, --stations-url or both, or --demo")
        // One source is enough: the other is not configured.
        #expect(failure(["--alerts-url", "file:///a"]) == nil)
        #expect(failure(["--stations-url", "file:///s"]) == nil)
        #expect(failure(["--demo"], ["STOPSHEETD_HTTP_TIMEOUT": "soon"])?.hasPrefix("STOPSHEETD_HTTP_TIMEOUT: ") == true)
        #expect(failure(["--demo=maybe"]) != nil)
    }

    @Test func helpAndVersion() throws {
        #expect(try Config.load(arguments: ["--help"], environment: [:], readFile: { _ in nil }) == .help)
        #expect(try Config.load(arguments: ["--version"], environment: [:], readFile: { _ in nil }) == .version)
        for flag in ["--socket", "--alerts-url", "--http-timeout", "--demo", "--log-level", "--config", "STOPSHEETD_STATIONS_INTERVAL"] {
            #expect(Config.usage.contains(flag))
        }
    }

    /// `--help` fits 80 columns (its words wrapped, never cut), and a help beside its flag has
    /// two spaces at least between them: a flag too long for that has a line of its own.
    @Test func helpFitsEightyColumnsAndNoHelpTouchesItsFlag() {
        let lines = Config.usage.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 }.map { String($0) })")
        var beside = 0
        for line in lines where line.starts(with: "  -") && line.count > 30 && line[29] == " " && line[30] != " " {
            beside += 1
            #expect(line[28] == " ", "\(String(line))")
        }
        #expect(beside > 20, "the rig: most flags have their help beside them")
        let words = Config.usage.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "[" || $0 == "]" })
        #expect(words.contains("STOPSHEETD_MAX_CONNECTIONS_PER_UID") && words.contains("--facilities-inventory-headers-file"), "no word cut")
    }

    /// `--help` says which options a reload leaves for a restart: exactly those whose row in
    /// the options table says so.
    @Test func helpMarksTheOptionsThatTakeEffectAtRestart() {
        // Each option's entry: from its flag at the start of a line to the next such line.
        let entries = Config.usage.components(separatedBy: "\n  --").dropFirst().map { "--" + $0 }
        let flags = entries.map { String($0.prefix { $0 != " " && $0 != "\n" }) }
        #expect(flags.count > 20)
        for (flag, entry) in zip(flags, entries) {
            let marked = entry.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ").contains(Config.restartOnlyNote)
            #expect(marked == Config.takesEffectAtRestart(flag), "\(flag): \(entry)")
        }
    }

    /// A value other than the default for every option, as a user would write it.
    static let changedValues: [String: String?] = [
        "--socket": "/tmp/other.sock", "--alerts-url": "file:///tmp/alerts.json", "--stations-url": "file:///tmp/stops.csv",
        "--alerts-interval": "61", "--stations-interval": "3601", "--refresh-spacing": "2", "--alerts-stale-after": "601",
        "--stations-stale-after": "9000", "--http-timeout": "11", "--facilities-url": "https://lifts.example/siri-fm",
        "--facilities-inventory-url": "file:///tmp/inventory.csv", "--facilities-stations-url": "file:///tmp/stations.csv", "--facilities-stations-headers-file": "/etc/stopsheetd/stations.headers", "--facilities-radius": "250", "--alerts-headers-file": "/run/credentials/stopsheetd.service/alerts-headers",
        "--stations-headers-file": "/etc/stopsheetd/stations.headers", "--facilities-headers-file": "/etc/stopsheetd/lifts.headers",
        "--facilities-inventory-headers-file": "/etc/stopsheetd/inventory.headers", "--topology-url": "file:///tmp/topology.zip", "--topology-headers-file": "/etc/stopsheetd/topology.headers", "--facilities-interval": "30", "--facilities-stale-after": "120", "--language": "es", "--train-route-types": "1",
        "--agency-name": "MBTA", "--time-zone": "America/New_York", "--config": "-/tmp/none.conf",
        "--now": "2015-02-14T14:35:00-06:00", "--notify-ready": "when-loaded", "--demo": nil, "--log-level": "debug",
        "--max-line-bytes": "2048", "--max-connections": "10", "--max-connections-per-uid": "5", "--max-buffered-bytes": "100000",
        "--max-batch": "5", "--max-depth": "10", "--max-output-bytes": "8192", "--idle-timeout": "5", "--stuck-timeout": "5",
        "--max-subscriptions": "3", "--max-subscription-stops": "3", "--max-subscribed-stops": "3",
    ]

    /// The options that take effect at restart, as stopsheetd(8) lists them.
    static let atRestart: Set<String> = [
        "--socket", "--now", "--notify-ready", "--max-line-bytes", "--max-connections", "--max-connections-per-uid",
        "--max-buffered-bytes", "--max-batch", "--max-depth", "--max-output-bytes", "--idle-timeout", "--stuck-timeout",
        "--max-subscriptions", "--max-subscription-stops", "--max-subscribed-stops",
    ]

    /// Each option changed in turn, as a reload reads it: either applied (the reload's
    /// configuration is the new one) or named once among the ignored and kept at its running value.
    @Test func aReloadAppliesEachOptionOrNamesItOnce() throws {
        #expect(Set(Config.options.map(\.flag)) == Set(Self.changedValues.keys), "a changed value for every option")
        // A configuration needs a source; a flag given twice takes the second.
        let base = ["--alerts-url", "file:///srv/alerts.json"]
        let running = try run(base)
        for option in Config.options {
            let value = Self.changedValues[option.flag] ?? nil
            let next = try run(base + [option.flag] + (value.map { [$0] } ?? []))
            #expect(next != running, "\(option.flag) changes the configuration")
            let (applied, ignored) = running.reloaded(to: next)
            if Self.atRestart.contains(option.flag) {
                #expect(ignored == [option.flag] && applied == running, "\(option.flag): named once, the running value kept")
            } else {
                #expect(ignored.isEmpty && applied == next, "\(option.flag): applied")
            }
        }
    }

}
