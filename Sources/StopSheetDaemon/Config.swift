import StopSheetCore
import ZoneInfo

/// The daemon's configuration from flags and `STOPSHEETD_*` environment variables (flags win),
/// so the unit can use `EnvironmentFile=`. Parsing is pure: argv and environment are parameters,
/// and every bad value is a one-line reason. The one exception is `--time-zone`, whose name is
/// looked up in the system's time-zone database, so that a start and `--check-config` refuse a
/// zone the daemon could not show.
///
/// Each setting is written once: its field here, named as its flag (`--max-output-bytes` is
/// `maxOutputBytes`, and so in `ServerLimits`), with its default as the field's initial value;
/// its row in `options` says how it is parsed and shows that default (`default: \.field`) in
/// `--help`. The limits structs take their defaults from `Config.defaults`; the man pages and the
/// sample config are checked against `documentedDefaults` (OptionsDocumentationIntegrationTests).
///
/// Adding an option: a field with its default, then a row in `options` (flag, placeholder, help
/// without the default, `default: \.field` when it has one, and how to parse it), then its
/// `.It Fl` item in man/stopsheetd.8, its `.It Ev` in man/stopsheetd.conf.5 and its commented
/// `#STOPSHEETD_…=<default>` line in systemd/stopsheetd.conf.
public struct Config: Sendable, Equatable {
    public var socketPath = "/run/stopsheetd/stopsheetd.sock"
    public var alertsURL: String?
    public var stationsURL: String?
    public var alertsInterval: Double = 60
    public var stationsInterval: Double = 3600
    public var alertsStaleAfter: Double = 600
    /// Least time between two fetches that `refresh` calls ask for (seconds; 0 = none).
    public var refreshSpacing: Double = 1
    /// Nil: 3 × `stationsInterval`.
    public var stationsStaleAfter: Double?
    public var httpTimeout: Double = 10
    /// GTFS-realtime translations (BCP 47, e.g. `en`, `es`), which `route_type`s are trains, and
    /// the agency name of the "none" sentence.
    public var reading = FeedReading()
    /// `--time-zone`, read from the time-zone database when given; nil: `TimeZones.shown` chooses.
    public var timeZone: TimeZoneRules?
    public var demo = false
    public var logLevel: LogLevel = .notice
    public var maxLineBytes = 1 << 20
    public var maxConnections = 1024
    public var maxConnectionsPerUID = 64
    public var maxBatch = 64
    public var maxDepth = 64
    public var maxOutputBytes = 256 << 10
    public var maxBufferedBytes = 32 << 20
    public var idleTimeout: Double = 0
    public var stuckTimeout: Double = 30
    public var maxSubscriptions = 16
    public var maxSubscriptionStops = 256
    public var maxSubscribedStops = 16384
    public var configFile: String?

    /// Every setting at its default.
    public static let defaults = Config()

    public enum Action: Equatable, Sendable {
        case run(Config)
        case help
        case version
    }

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    private struct Option: Sendable {
        let flag: String
        let placeholder: String?
        let help: String
        /// The default as a user would write it, read from `Config.defaults`; nil when there is
        /// none or `help` says it in words.
        let defaultValue: String?
        /// Sets the value; `name` is how the user wrote the setting (flag or variable), for messages.
        let apply: @Sendable (inout Config, String, _ name: String) throws -> Void

        init(flag: String, placeholder: String?, help: String, default field: PartialKeyPath<Config>? = nil,
             apply: @escaping @Sendable (inout Config, String, _ name: String) throws -> Void) {
            self.flag = flag
            self.placeholder = placeholder
            self.help = help
            defaultValue = field.map { Self.written(Config.defaults[keyPath: $0]) }
            self.apply = apply
        }

        /// A value as it would be written in a flag or the config file.
        private static func written(_ value: Any) -> String {
            switch value {
            case let seconds as Double: seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
            case let level as LogLevel: level.name
            default: "\(value)"
            }
        }

        /// The help text with its default.
        var helpWithDefault: String { help + (defaultValue.map { " (default \($0))" } ?? "") }

        var environmentName: String {
            "STOPSHEETD_" + flag.dropFirst(2).uppercased().replacingOccurrences(of: "-", with: "_")
        }
    }

    private static let options: [Option] = [
        Option(flag: "--socket", placeholder: "PATH", help: "Unix socket to serve", default: \.socketPath) { $0.socketPath = try nonEmpty($1, $2) },
        Option(flag: "--alerts-url", placeholder: "URL", help: "train alerts: http(s):// or file:// (app API, CTA alerts.aspx JSON or GTFS-realtime)") { $0.alertsURL = try sourceURL($1, $2) },
        Option(flag: "--stations-url", placeholder: "URL", help: "station metadata: http(s):// or file:// ('L' stops CSV/JSON, app stops JSON, GTFS stops.txt or feed)") { $0.stationsURL = try sourceURL($1, $2) },
        Option(flag: "--alerts-interval", placeholder: "SECONDS", help: "alert refresh interval, at least 1", default: \.alertsInterval) { $0.alertsInterval = try seconds($1, $2, min: 1) },
        Option(flag: "--stations-interval", placeholder: "SECONDS", help: "station refresh interval, at least 1", default: \.stationsInterval) { $0.stationsInterval = try seconds($1, $2, min: 1) },
        Option(flag: "--refresh-spacing", placeholder: "SECONDS", help: "least time between two fetches that refresh calls ask for", default: \.refreshSpacing) { $0.refreshSpacing = try seconds($1, $2, min: 0) },
        Option(flag: "--alerts-stale-after", placeholder: "SECONDS", help: "alerts older than this are stale in sheets and health", default: \.alertsStaleAfter) { $0.alertsStaleAfter = try seconds($1, $2, min: 1) },
        Option(flag: "--stations-stale-after", placeholder: "SECONDS", help: "stations older than this are stale (default 3 x --stations-interval)") { $0.stationsStaleAfter = try seconds($1, $2, min: 1) },
        Option(flag: "--http-timeout", placeholder: "SECONDS", help: "total time allowed for one upstream fetch", default: \.httpTimeout) { $0.httpTimeout = try seconds($1, $2, min: 0.001) },
        Option(flag: "--language", placeholder: "TAG", help: "GTFS-realtime translation to pick, then the untagged one, then the first", default: \.reading.language) { $0.reading.language = try nonEmpty($1, $2) },
        Option(flag: "--train-route-types", placeholder: "LIST", help: "GTFS route_types that are trains, e.g. 0-2,12 (default \(TrainRouteTypes.rail))") {
            config, value, name in
            guard let types = TrainRouteTypes(parsing: value) else {
                throw Failure(description: "\(name): '\(value)' is not a list of route_types and ranges such as 0,1,2,100-199")
            }
            config.reading.trainRouteTypes = types
        },
        Option(flag: "--agency-name", placeholder: "NAME", help: "agency the 'none' sentence names (default: the feed's agency_name; CTA for CTA data)") {
            $0.reading.agencyName = try nonEmpty($1, $2)
        },
        Option(flag: "--time-zone", placeholder: "ZONE", help: "zone of every time shown, e.g. America/New_York (default: the feed's agency_timezone, else \(CTATime.zoneIdentifier))") {
            do { $0.timeZone = try TimeZoneDatabase.rules(try nonEmpty($1, $2)) } catch let failure as TimeZoneDatabase.Failure { throw Failure(description: "\($2): \(failure)") }
        },
        Option(flag: "--config", placeholder: "PATH", help: "environment file of STOPSHEETD_* settings, re-read on SIGHUP; -PATH: optional") {
            let path = try nonEmpty($1, $2)
            $0.configFile = path.hasPrefix("-") ? String(path.dropFirst()) : path
        },
        Option(flag: "--demo", placeholder: nil, help: "serve the embedded real CTA snapshot for any source not given") { $0.demo = try flag($1, $2) },
        Option(flag: "--log-level", placeholder: "LEVEL", help: "critical, error, warning, notice, info or debug", default: \.logLevel) { config, value, name in
            guard let level = LogLevel(name: value) else { throw Failure(description: "\(name): '\(value)' is not one of \(LogLevel.allCases.map(\.name).joined(separator: ", "))") }
            config.logLevel = level
        },
        Option(flag: "--max-line-bytes", placeholder: "BYTES", help: "longest request line", default: \.maxLineBytes) { $0.maxLineBytes = try count($1, $2, min: 64) },
        Option(flag: "--max-connections", placeholder: "N", help: "concurrent clients; the next gets 'server busy'", default: \.maxConnections) { $0.maxConnections = try count($1, $2, min: 1) },
        Option(flag: "--max-connections-per-uid", placeholder: "N", help: "concurrent clients of one uid other than root and the daemon's", default: \.maxConnectionsPerUID) { $0.maxConnectionsPerUID = try count($1, $2, min: 1) },
        Option(flag: "--max-buffered-bytes", placeholder: "BYTES", help: "unsent answers and unanswered requests of all clients together", default: \.maxBufferedBytes) { $0.maxBufferedBytes = try count($1, $2, min: 65536) },
        Option(flag: "--max-batch", placeholder: "N", help: "requests in one batch", default: \.maxBatch) { $0.maxBatch = try count($1, $2, min: 1) },
        Option(flag: "--max-depth", placeholder: "N", help: "JSON nesting depth of a request", default: \.maxDepth) { $0.maxDepth = try count($1, $2, min: 4) },
        Option(flag: "--max-output-bytes", placeholder: "BYTES", help: "unsent answers per client before it stops being read", default: \.maxOutputBytes) { $0.maxOutputBytes = try count($1, $2, min: 4096) },
        Option(flag: "--idle-timeout", placeholder: "SECONDS", help: "close clients idle this long; 0 = never", default: \.idleTimeout) { $0.idleTimeout = try seconds($1, $2, min: 0) },
        Option(flag: "--stuck-timeout", placeholder: "SECONDS", help: "close clients that read nothing of their answers this long", default: \.stuckTimeout) { $0.stuckTimeout = try seconds($1, $2, min: 0.1) },
        Option(flag: "--max-subscriptions", placeholder: "N", help: "subscriptions per connection", default: \.maxSubscriptions) { $0.maxSubscriptions = try count($1, $2, min: 1) },
        Option(flag: "--max-subscription-stops", placeholder: "N", help: "stops in one subscription", default: \.maxSubscriptionStops) { $0.maxSubscriptionStops = try count($1, $2, min: 1) },
        Option(flag: "--max-subscribed-stops", placeholder: "N", help: "subscribed stops over all connections", default: \.maxSubscribedStops) { $0.maxSubscribedStops = try count($1, $2, min: 1) },
    ]

    public init() {}

    /// Everything the configuration says and everything wrong with it: the flags over the config
    /// file's settings over the environment. `action` is nil when any problem is an error.
    public struct Checked: Sendable {
        public var action: Action?
        public var problems: [ConfigProblem]
        public var errors: [ConfigProblem] { problems.filter { $0.severity == .error } }
        public var warnings: [ConfigProblem] { problems.filter { $0.severity == .warning } }
    }

    /// Parses flags over the config file's settings over the environment. `readFile` returns a
    /// file's text, or nil when it cannot be read. Throws the first error; warnings are dropped.
    public static func load(arguments: [String], environment: [String: String], readFile: (String) throws(Failure) -> String?) throws(Failure) -> Action {
        var ignored: [ConfigProblem] = []
        return try load(arguments: arguments, environment: environment, readFile: readFile, warnings: &ignored)
    }

    /// As above, appending the warnings (each once) for the caller to log.
    public static func load(arguments: [String], environment: [String: String], readFile: (String) throws(Failure) -> String?,
                            warnings: inout [ConfigProblem]) throws(Failure) -> Action {
        let checked = check(arguments: arguments, environment: environment, readFile: readFile)
        warnings += checked.warnings
        if let error = checked.errors.first { throw Failure(description: error.description) }
        return checked.action ?? .help
    }

    /// The whole configuration checked, every problem collected (what `--check-config` prints).
    /// A `--config` path starting with `-` names an optional file, as in systemd's
    /// `EnvironmentFile=-…`: missing is then the same as empty; without it, missing is an error.
    public static func check(arguments: [String], environment: [String: String], readFile: (String) throws(Failure) -> String?) -> Checked {
        for argument in arguments {
            if argument == "--help" || argument == "-h" { return Checked(action: .help, problems: []) }
            if argument == "--version" { return Checked(action: .version, problems: []) }
        }
        var config = Config()
        var problems: [ConfigProblem] = []
        for option in options {
            if let value = environment[option.environmentName] {
                do { try option.apply(&config, value, option.environmentName) } catch { problems.append(.error("\(error)")) }
            }
        }
        if let given = configFileFlag(arguments) ?? environment["STOPSHEETD_CONFIG"], !given.isEmpty, given != "-" {
            let optional = given.hasPrefix("-")
            let path = optional ? String(given.dropFirst()) : given
            do {
                if let text = try readFile(path) {
                    problems += apply(ConfigFile(path: path, text: text), to: &config)
                } else if !optional {
                    problems.append(.error("cannot read this config file (to make it optional, give it as --config -\(path))", file: path))
                }
            } catch {
                // The reader's text names the file already (`--config: PATH is not a regular file`).
                problems.append(.error("\(error)"))
            }
        }
        problems += applyFlags(arguments, to: &config)
        if problems.allSatisfy({ $0.severity == .warning }), !config.demo, config.alertsURL == nil || config.stationsURL == nil {
            problems.append(.error("no data source: give --alerts-url and --stations-url, or --demo"))
        }
        let failed = problems.contains { $0.severity == .error }
        return Checked(action: failed ? nil : .run(config), problems: problems)
    }

    /// True when the arguments ask for `--check-config` rather than a running daemon.
    public static func asksForCheck(_ arguments: [String]) -> Bool {
        arguments.contains(checkFlag)
    }

    static let checkFlag = "--check-config"

    private static func apply(_ file: ConfigFile, to config: inout Config) -> [ConfigProblem] {
        var problems = file.problems
        for setting in file.settings {
            if let option = options.first(where: { $0.environmentName == setting.key }) {
                if option.flag == "--config" {
                    problems.append(.warning("\(setting.key) has no effect inside a config file", file: file.path, line: setting.line))
                    continue
                }
                do { try option.apply(&config, setting.value, setting.key) } catch {
                    problems.append(.error("\(error)", file: file.path, line: setting.line))
                }
            } else if let option = options.first(where: { $0.environmentName == setting.key.uppercased() }) {
                // systemd's EnvironmentFile= keeps the case, so `stopsheetd_language` is another variable.
                problems.append(.warning("\(setting.key) is ignored: keys are upper case (did you mean \(option.environmentName)?)",
                                         file: file.path, line: setting.line))
            } else if setting.key.uppercased().hasPrefix("STOPSHEETD_") {
                let hint = closest(to: setting.key.uppercased(), among: options.map(\.environmentName)).map { " (did you mean \($0)?)" } ?? ""
                problems.append(.warning("unknown key \(setting.key), ignored\(hint)", file: file.path, line: setting.line))
            }
            // Other variables (http_proxy=, …) are the environment's business: systemd passes them on.
        }
        // In line order, as an editor would list them.
        return problems.enumerated().sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }.map(\.element)
    }

    /// The flags, in order; the first bad one ends the parse (what follows it cannot be trusted).
    private static func applyFlags(_ arguments: [String], to config: inout Config) -> [ConfigProblem] {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == checkFlag { continue }
            let (flag, inline) = split(argument)
            guard let option = options.first(where: { $0.flag == flag }) else {
                let hint = argument.hasPrefix("--") ? closest(to: flag, among: options.map(\.flag) + [checkFlag]) : nil
                return [.error("unknown option '\(argument)' (\(hint.map { "did you mean \($0)?" } ?? "see --help"))")]
            }
            let value: String
            if let inline {
                value = inline
            } else if option.placeholder == nil {
                value = "true"
            } else {
                guard index < arguments.count else { return [.error("\(flag) needs a value (\(option.placeholder!))")] }
                value = arguments[index]
                index += 1
            }
            do { try option.apply(&config, value, flag) } catch { return [.error("\(error)")] }
        }
        return []
    }

    private static func configFileFlag(_ arguments: [String]) -> String? {
        var result: String?
        for (index, argument) in arguments.enumerated() {
            if argument == "--config", index + 1 < arguments.count { result = arguments[index + 1] }
            if argument.hasPrefix("--config=") { result = String(argument.dropFirst("--config=".count)) }
        }
        return result
    }

    /// `arguments` excludes the program name. No config file is read.
    public static func parse(arguments: [String], environment: [String: String]) throws(Failure) -> Action {
        try load(arguments: arguments, environment: environment.filter { $0.key != "STOPSHEETD_CONFIG" },
                 readFile: { _ in nil })
    }

    /// The candidate nearest to a mistyped name, if near enough to be the likely intent.
    static func closest(to name: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(Array(name.utf8), Array($0.utf8))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 3 else { return nil }
        return best.0
    }

    private static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// Each option's flag, variable and default (nil: none, or said in words), for the tests
    /// that hold the man pages and the sample config to them.
    static var documentedDefaults: [(flag: String, environmentName: String, value: String?)] {
        options.map { ($0.flag, $0.environmentName, $0.defaultValue) }
    }

    /// `--help`, within 80 columns: each option's help wrapped beside its flag, and its
    /// environment variable on a line of its own below.
    public static var usage: String {
        var text = """
            Usage: stopsheetd [OPTIONS]
            Serves CTA train stop sheets (alert glyph, step-free status) as JSON-RPC 2.0
            on a Unix socket. Every option can also be set as the environment variable
            shown below it; flags win. SIGHUP re-reads them all and applies each, but
            those that say they take effect at restart.

            """
        func entry(_ left: String, _ help: String, _ variable: String? = nil) {
            let indent = String(repeating: " ", count: usageColumn)
            var lines = wrap(help, width: 80 - usageColumn)
            if let variable { lines.append("[\(variable)]") }
            let head = "  " + left
            if head.count < usageColumn - 1 {
                text += head.padding(toLength: usageColumn) + lines.removeFirst() + "\n"
            } else {
                text += head + "\n"
            }
            for line in lines { text += indent + line + "\n" }
        }
        for option in options {
            let help = option.helpWithDefault + (isRestartOnly(option.flag) ? "; \(restartOnlyNote)" : "")
            entry(option.flag + (option.placeholder.map { " " + $0 } ?? ""), help, option.environmentName)
        }
        entry(checkFlag, "check flags, environment and --config file; exit 0 or 1")
        entry("--help", "show this help")
        entry("--version", "show the version")
        return text
    }

    /// Where the help text of `usage` starts.
    private static let usageColumn = 30

    private static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + [line]
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private static func nonEmpty(_ value: String, _ flag: String) throws(Failure) -> String {
        guard !value.isEmpty else { throw Failure(description: "\(flag) must not be empty") }
        return value
    }

    private static func sourceURL(_ value: String, _ flag: String) throws(Failure) -> String {
        let url = try nonEmpty(value, flag)
        do { try checkSourceURL(url) } catch { throw Failure(description: "\(flag): \(error.message)") }
        return url
    }

    private static func seconds(_ value: String, _ flag: String, min: Double) throws(Failure) -> Double {
        guard let number = Double(value), number.isFinite, number >= min, number <= 86_400 * 7 else {
            throw Failure(description: "\(flag): '\(value)' is not a number of seconds between \(min == min.rounded() ? String(Int(min)) : String(min)) and 604800")
        }
        return number
    }

    private static func count(_ value: String, _ flag: String, min: Int) throws(Failure) -> Int {
        guard let number = Int(value), number >= min, number <= 1 << 30 else {
            throw Failure(description: "\(flag): '\(value)' is not a whole number between \(min) and 1073741824")
        }
        return number
    }

    private static func flag(_ value: String, _ flag: String) throws(Failure) -> Bool {
        switch value.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off", "": return false
        default: throw Failure(description: "\(flag): '\(value)' is not one of 1, true, yes, on (or 0, false, no, off, empty), in any case")
        }
    }
}

extension String {
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }

    fileprivate func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
