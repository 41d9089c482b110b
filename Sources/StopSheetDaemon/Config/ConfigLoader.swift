
/// Loading a configuration: the environment, then the `--config` file, then the flags, each
/// applied through the options table (ConfigOptions.swift), every problem collected for
/// `--check-config` and the start-up log, with a spelling hint for a mistyped flag or key.
extension Config {
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
        // One source is enough: the other is then "not configured" (no glyph without alerts, a
        // muted button without stations).
        if problems.allSatisfy({ $0.severity == .warning }), !config.demo, config.alertsURL == nil, config.stationsURL == nil {
            problems.append(.error("no data source: give --alerts-url, --stations-url or both, or --demo"))
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

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    // MARK: Spelling hints, for the unknown flags and keys above

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
}
