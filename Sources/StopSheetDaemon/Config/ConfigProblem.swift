/// One thing wrong with the configuration, located where it was found, so `--check-config`, the
/// start-up and a reload can all say `file:line: …` the way compilers and `sshd -t` do. An error
/// stops the configuration from being used; a warning (an unknown `STOPSHEETD_*` key, a line
/// that is not `KEY=value`) is reported and the rest applies. Plain value; any thread.
public struct ConfigProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable { case warning, error }

    public var severity: Severity
    /// The config file; nil for the command line and the environment.
    public var file: String?
    /// 1-based; nil when the problem is about the file as a whole.
    public var line: Int?
    public var message: String

    public static func warning(_ message: String, file: String? = nil, line: Int? = nil) -> ConfigProblem {
        ConfigProblem(severity: .warning, file: file, line: line, message: message)
    }

    public static func error(_ message: String, file: String? = nil, line: Int? = nil) -> ConfigProblem {
        ConfigProblem(severity: .error, file: file, line: line, message: message)
    }

    /// `/etc/stopsheetd/stopsheetd.conf:7: warning: unknown key …`; errors carry no severity word
    /// (they are what the daemon prints when it refuses to start).
    public var description: String {
        let location = file.map { $0 + (line.map { ":\($0)" } ?? "") + ": " } ?? ""
        return location + (severity == .warning ? "warning: " : "") + message
    }

    /// Journal fields naming where the problem is (only warnings are logged: an error stops the
    /// start or the reload, which says so itself).
    var logFields: [(String, String)] {
        [JournalEvent.configWarning.field] + (file.map { [("CONFIG_FILE", $0)] } ?? [])
            + (line.map { [("CONFIG_LINE", String($0))] } ?? [])
    }

    /// Logs a warning (at start and on reload, once per load).
    public func log() {
        Log.warning(description, logFields)
    }
}
