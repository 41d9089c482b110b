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
        #expect(failure([]) == "no data source: give --alerts-url and --stations-url, or --demo")
        #expect(failure(["--alerts-url", "file:///a"]) == "no data source: give --alerts-url and --stations-url, or --demo")
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

    /// `--help` says which options a reload leaves for a restart: exactly those of
    /// `Config.restartOnly`, each of which `keepRestartOnly` keeps.
    @Test func helpMarksTheOptionsThatTakeEffectAtRestart() {
        // Each option's entry: from its flag at the start of a line to the next such line.
        let entries = Config.usage.components(separatedBy: "\n  --").dropFirst().map { "--" + $0 }
        let flags = entries.map { String($0.prefix { $0 != " " && $0 != "\n" }) }
        #expect(flags.count > 20)
        for (flag, entry) in zip(flags, entries) {
            let marked = entry.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ").contains(Config.restartOnlyNote)
            #expect(marked == Config.isRestartOnly(flag), "\(flag): \(entry)")
        }
        #expect(Config.restartOnly.allSatisfy { flags.contains($0.flag) }, "every restart-only option is an option")
        var changed = Config()
        (changed.maxBatch, changed.maxConnections, changed.socketPath, changed.alertsInterval) = (2, 5, "/tmp/other.sock", 120)
        #expect(Config().restartOnlyChanges(to: changed) == ["--socket", "--max-connections", "--max-batch"])
        var kept = changed
        kept.keepRestartOnly(from: Config())
        #expect(Config().restartOnlyChanges(to: kept).isEmpty && kept.alertsInterval == 120, "the others are the new ones")
    }
}
