/// An option of the command line: a flag (`--json`) or one that takes a value (`--socket PATH`).
struct Option: Sendable {
    let name: String
    /// The value's placeholder in the usage text; nil for a flag.
    let value: String?
    let summary: String

    var synopsis: String { value.map { "\(name) \($0)" } ?? name }
}

/// A command line taken apart: options (anywhere, `--name value` or `--name=value`, `--` ends
/// them), then the command and its operands. Every index is checked, so nothing typed can trap;
/// what does not fit is a `UsageError`.
struct Arguments {
    struct UsageError: Error {
        let message: String
    }

    private(set) var flags: Set<String> = []
    private(set) var values: [String: String] = [:]
    /// The command, then its operands.
    private(set) var positionals: [String] = []

    var command: String? { positionals.first }
    var operands: [String] { Array(positionals.dropFirst()) }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    func value(_ option: String) -> String? { values[option] }
    /// Every option given, flags and those with values.
    var given: [String] { Array(flags) + Array(values.keys) }

    /// `-h` is `--help`; `options` are every option any command knows.
    init(_ arguments: [String], options: [Option]) throws(UsageError) {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard !optionsEnded, argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument == "-h" ? "--help" : argument
            var inline: String?
            if let equals = name.firstIndex(of: "="), name.hasPrefix("--") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = options.first(where: { $0.name == name }) else {
                throw UsageError(message: "unknown option '\(argument)'")
            }
            if option.value == nil {
                guard inline == nil else { throw UsageError(message: "\(name) takes no value") }
                flags.insert(name)
            } else if let inline {
                values[name] = inline
            } else if index < arguments.count {
                values[name] = arguments[index]
                index += 1
            } else {
                throw UsageError(message: "\(name) needs a value (\(option.synopsis))")
            }
        }
    }
}
