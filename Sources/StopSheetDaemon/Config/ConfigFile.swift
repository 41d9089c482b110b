/// An environment file read the way systemd's `EnvironmentFile=` reads it (`KEY=value` lines,
/// `#`/`;` comments, optional single or double quotes), so the daemon can re-read the same file
/// on SIGHUP — systemd itself only reads it at start. Every setting keeps its line, so a bad
/// value can be reported as `file:line`. Pure value; any thread.
public struct ConfigFile: Sendable, Equatable {
    public struct Setting: Sendable, Equatable {
        public var key: String
        public var value: String
        public var line: Int
    }

    public let path: String
    /// In file order; a later line for the same key wins, as in systemd.
    public private(set) var settings: [Setting] = []
    /// Lines that are not `KEY=value`, and keys set twice.
    public private(set) var problems: [ConfigProblem] = []

    public init(path: String, text: String) {
        self.path = path
        var seen: [String: Int] = [:]
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (index, rawLine) in lines.enumerated() {
            let number = index + 1
            let line = rawLine.trimmingSpaces
            guard let first = line.first, first != "#", first != ";" else { continue }
            guard let equals = line.firstIndex(of: "=") else {
                problems.append(.warning("not a KEY=value line, ignored: '\(Log.oneLine(line, maxBytes: 60))'", file: path, line: number))
                continue
            }
            let key = line[..<equals].trimmingSpaces
            guard ConfigFile.isVariableName(key) else {
                problems.append(.warning("'\(Log.oneLine(key, maxBytes: 60))' is not a variable name, line ignored", file: path, line: number))
                continue
            }
            var value = line[line.index(after: equals)...].trimmingSpaces
            if value.count >= 2, let quote = value.first, quote == "\"" || quote == "'", value.last == quote {
                value = String(value.dropFirst().dropLast())
            }
            if let earlier = seen[key] {
                problems.append(.warning("\(key) is set again (line \(earlier) is overridden)", file: path, line: number))
            }
            seen[key] = number
            settings.append(Setting(key: key, value: value, line: number))
        }
    }

    /// The `KEY=value` pairs, the last line for a key winning.
    public static func parse(_ text: String) -> [String: String] {
        ConfigFile(path: "", text: text).settings.reduce(into: [:]) { $0[$1.key] = $1.value }
    }

    /// What systemd accepts as an environment variable name: letters, digits, `_`, not starting
    /// with a digit.
    static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
