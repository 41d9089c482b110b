/// `--help`: the options table (ConfigOptions.swift) as text, with the marks of its `reload`
/// column (ReloadEffect.swift).
extension Config {
    /// `--help`, within 80 columns: each option's help wrapped beside its flag, and its
    /// environment variable on a line of its own below.
    public static var usage: String {
        var text = """
            Usage: stopsheetd [OPTIONS]
            Serve train stop sheets of any transit agency as JSON-RPC on a Unix socket:
            the alert glyph and the step-free button of a station, alerts, health. Every
            option can also be set as the environment variable shown below it; flags
            win. SIGHUP re-reads them all and applies each, but those that say they take
            effect at restart.

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
            let help = option.helpWithDefault + (option.reload == nil ? "" : "; \(restartOnlyNote)")
            entry(option.flag + (option.placeholder.map { " " + $0 } ?? ""), help, option.environmentName)
        }
        entry(checkFlag, "check flags, environment and --config file; exit 0 or 1")
        entry("--help", "show this help")
        entry("--version", "show the version")
        return text
    }

    /// Where the help text of `usage` starts.
    static let usageColumn = 30

    /// `text`'s words in lines of at most `width` columns, each holding as many as fit.
    static func wrap(_ text: String, width: Int) -> [String] {
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
}

extension String {
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
