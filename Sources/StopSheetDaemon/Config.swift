/// The daemon's configuration from flags and `STOPSHEETD_*` environment variables (flags win),
/// so the unit can use `EnvironmentFile=`. Parsing is pure: argv and environment are parameters,
/// and every bad value is a one-line reason.
public struct Config: Sendable, Equatable {
    public var socketPath = "/run/stopsheetd/stopsheetd.sock"
    public var alertsURL: String?
    public var stationsURL: String?
    public var alertsInterval: Double = 60
    public var stationsInterval: Double = 3600
    public var httpTimeout: Double = 10
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
    public var configFile: String?

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
        let apply: @Sendable (inout Config, String) throws -> Void

        var environmentName: String {
            "STOPSHEETD_" + flag.dropFirst(2).uppercased().replacingOccurrences(of: "-", with: "_")
        }
    }

    private static let options: [Option] = [
        Option(flag: "--socket", placeholder: "PATH", help: "Unix socket to serve (default /run/stopsheetd/stopsheetd.sock)") { $0.socketPath = try nonEmpty($1, "--socket") },
        Option(flag: "--alerts-url", placeholder: "URL", help: "train alerts: http(s):// or file:// (app API or CTA alerts.aspx JSON)") { $0.alertsURL = try nonEmpty($1, "--alerts-url") },
        Option(flag: "--stations-url", placeholder: "URL", help: "station metadata: http(s):// or file:// ('L' stops CSV/JSON or app stops JSON)") { $0.stationsURL = try nonEmpty($1, "--stations-url") },
        Option(flag: "--alerts-interval", placeholder: "SECONDS", help: "alert refresh interval (default 60, at least 1)") { $0.alertsInterval = try seconds($1, "--alerts-interval", min: 1) },
        Option(flag: "--stations-interval", placeholder: "SECONDS", help: "station refresh interval (default 3600, at least 1)") { $0.stationsInterval = try seconds($1, "--stations-interval", min: 1) },
        Option(flag: "--http-timeout", placeholder: "SECONDS", help: "total time allowed for one upstream fetch (default 10)") { $0.httpTimeout = try seconds($1, "--http-timeout", min: 0.001) },
        Option(flag: "--config", placeholder: "PATH", help: "environment file of STOPSHEETD_* settings, re-read on SIGHUP (missing = empty)") { $0.configFile = try nonEmpty($1, "--config") },
        Option(flag: "--demo", placeholder: nil, help: "serve the embedded real CTA snapshot for any source not given") { $0.demo = try flag($1, "--demo") },
        Option(flag: "--log-level", placeholder: "LEVEL", help: "critical, error, warning, notice (default), info or debug") { config, value in
            guard let level = LogLevel(name: value) else { throw Failure(description: "--log-level: '\(value)' is not one of \(LogLevel.allCases.map(\.name).joined(separator: ", "))") }
            config.logLevel = level
        },
        Option(flag: "--max-line-bytes", placeholder: "BYTES", help: "longest request line (default 1048576)") { $0.maxLineBytes = try count($1, "--max-line-bytes", min: 64) },
        Option(flag: "--max-connections", placeholder: "N", help: "concurrent clients; the next gets 'server busy' (default 1024)") { $0.maxConnections = try count($1, "--max-connections", min: 1) },
        Option(flag: "--max-connections-per-uid", placeholder: "N", help: "concurrent clients of one uid other than root and the daemon's (default 64)") { $0.maxConnectionsPerUID = try count($1, "--max-connections-per-uid", min: 1) },
        Option(flag: "--max-buffered-bytes", placeholder: "BYTES", help: "unsent answers and unanswered requests of all clients together (default 33554432)") { $0.maxBufferedBytes = try count($1, "--max-buffered-bytes", min: 65536) },
        Option(flag: "--max-batch", placeholder: "N", help: "requests in one batch (default 64)") { $0.maxBatch = try count($1, "--max-batch", min: 1) },
        Option(flag: "--max-depth", placeholder: "N", help: "JSON nesting depth of a request (default 64)") { $0.maxDepth = try count($1, "--max-depth", min: 4) },
        Option(flag: "--max-output-bytes", placeholder: "BYTES", help: "unsent answers per client before it stops being read (default 262144)") { $0.maxOutputBytes = try count($1, "--max-output-bytes", min: 4096) },
        Option(flag: "--idle-timeout", placeholder: "SECONDS", help: "close clients idle this long (default 0 = never)") { $0.idleTimeout = try seconds($1, "--idle-timeout", min: 0) },
        Option(flag: "--stuck-timeout", placeholder: "SECONDS", help: "close clients that read nothing of their answers this long (default 30)") { $0.stuckTimeout = try seconds($1, "--stuck-timeout", min: 0.1) },
    ]

    public init() {}

    /// Parses flags over the config file's settings over the environment. `readFile` returns a
    /// file's text, nil when there is none (a missing config file counts as empty), or throws
    /// why it is not a config file at all.
    public static func load(arguments: [String], environment: [String: String], readFile: (String) throws(Failure) -> String?) throws(Failure) -> Action {
        let path = configFileFlag(arguments) ?? environment["STOPSHEETD_CONFIG"]
        guard let path else { return try parse(arguments: arguments, environment: environment) }
        let fileSettings = try readFile(path).map(ConfigFile.parse) ?? [:]
        return try parse(arguments: arguments, environment: environment.merging(fileSettings) { _, file in file })
    }

    private static func configFileFlag(_ arguments: [String]) -> String? {
        var result: String?
        for (index, argument) in arguments.enumerated() {
            if argument == "--config", index + 1 < arguments.count { result = arguments[index + 1] }
            if argument.hasPrefix("--config=") { result = String(argument.dropFirst("--config=".count)) }
        }
        return result
    }

    /// `arguments` excludes the program name.
    public static func parse(arguments: [String], environment: [String: String]) throws(Failure) -> Action {
        var config = Config()
        for option in options {
            if let value = environment[option.environmentName] {
                do { try option.apply(&config, value) } catch { throw Failure(description: "\(option.environmentName): \(error)") }
            }
        }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--help" || argument == "-h" { return .help }
            if argument == "--version" { return .version }
            let (flag, inline) = split(argument)
            guard let option = options.first(where: { $0.flag == flag }) else {
                throw Failure(description: "unknown option '\(argument)' (see --help)")
            }
            let value: String
            if let inline {
                value = inline
            } else if option.placeholder == nil {
                value = "true"
            } else {
                guard index < arguments.count else { throw Failure(description: "\(flag) needs a value (\(option.placeholder!))") }
                value = arguments[index]
                index += 1
            }
            do { try option.apply(&config, value) } catch { throw (error as? Failure) ?? Failure(description: "\(error)") }
        }
        guard config.demo || (config.alertsURL != nil && config.stationsURL != nil) else {
            throw Failure(description: "no data source: give --alerts-url and --stations-url, or --demo")
        }
        return .run(config)
    }

    public static var usage: String {
        var text = """
            Usage: stopsheetd [OPTIONS]
            Serves CTA train stop sheets (alert glyph, step-free status) as JSON-RPC 2.0 on a Unix socket.
            Every option can also be set as an environment variable (shown); flags win.

            """
        for option in options {
            let left = option.flag + (option.placeholder.map { " " + $0 } ?? "")
            text += "  " + left.padding(toLength: 26) + option.help + "  [" + option.environmentName + "]\n"
        }
        text += "  " + "--help".padding(toLength: 26) + "show this help\n"
        text += "  " + "--version".padding(toLength: 26) + "show the version\n"
        return text
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private static func nonEmpty(_ value: String, _ flag: String) throws(Failure) -> String {
        guard !value.isEmpty else { throw Failure(description: "\(flag) must not be empty") }
        return value
    }

    private static func seconds(_ value: String, _ flag: String, min: Double) throws(Failure) -> Double {
        guard let number = Double(value), number.isFinite, number >= min, number <= 86_400 * 7 else {
            throw Failure(description: "\(flag): '\(value)' is not a number of seconds between \(min) and 604800")
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
        default: throw Failure(description: "\(flag): '\(value)' is not true or false")
        }
    }
}

extension String {
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self + " " : self + String(repeating: " ", count: length - count)
    }

    fileprivate func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
