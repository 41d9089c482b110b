// Re-exported for the whole daemon module (and stopsheetd and the tests): `printError`, `Errno`
// and the socket helpers live once in Posix, and every file here uses them.
@_exported import Posix

/// Syslog priorities, as journald's `PRIORITY=` field uses them.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case critical = 2, error = 3, warning = 4, notice = 5, info = 6, debug = 7

    public var name: String { String(describing: self) }

    public init?(name: String) {
        guard let level = LogLevel.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = level
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue > rhs.rawValue }

    /// Whether a message of `level` is written with this threshold (`--log-level`): one of the
    /// threshold's own level or a more urgent one. The one rule, for every message and for
    /// `Log.isEnabled` alike.
    public func shows(_ level: LogLevel) -> Bool { level >= self }
}

/// One structured log entry: a message and journald-style fields (`STOPSHEET_EVENT`, `UPSTREAM`, …).
public struct LogEntry: Sendable {
    public var level: LogLevel
    public var message: String
    public var fields: [(String, String)]
    public var file: String
    public var line: Int
    public var function: String
}

/// Where entries go: journald when its socket is there, stderr otherwise (see `Systemd/Journal`).
public protocol LogSink: Sendable {
    func write(_ entry: LogEntry)
}

/// The daemon's one logger. Quiet when healthy: `info` and below are off by default.
public enum Log {
    private struct State: Sendable {
        var level: LogLevel = .notice
        var sink: any LogSink = StderrLogSink()
    }

    private static let state = Locked(State())

    public static func configure(level: LogLevel? = nil, sink: (any LogSink)? = nil) {
        state.withLock {
            if let level { $0.level = level }
            if let sink { $0.sink = sink }
        }
    }

    public static var level: LogLevel { state.withLock { $0.level } }

    public static func log(_ level: LogLevel, _ message: @autoclosure () -> String, _ fields: [(String, String)] = [],
                           file: String = #fileID, line: Int = #line, function: String = #function)
    {
        let sink: (any LogSink)? = state.withLock { $0.level.shows(level) ? $0.sink : nil }
        sink?.write(LogEntry(level: level, message: message(), fields: fields, file: file, line: line, function: function))
    }

    public static func error(_ message: @autoclosure () -> String, _ fields: [(String, String)] = [], file: String = #fileID, line: Int = #line, function: String = #function) {
        log(.error, message(), fields, file: file, line: line, function: function)
    }
    public static func warning(_ message: @autoclosure () -> String, _ fields: [(String, String)] = [], file: String = #fileID, line: Int = #line, function: String = #function) {
        log(.warning, message(), fields, file: file, line: line, function: function)
    }
    public static func notice(_ message: @autoclosure () -> String, _ fields: [(String, String)] = [], file: String = #fileID, line: Int = #line, function: String = #function) {
        log(.notice, message(), fields, file: file, line: line, function: function)
    }
    public static func info(_ message: @autoclosure () -> String, _ fields: [(String, String)] = [], file: String = #fileID, line: Int = #line, function: String = #function) {
        log(.info, message(), fields, file: file, line: line, function: function)
    }
    public static func debug(_ message: @autoclosure () -> String, _ fields: [(String, String)] = [], file: String = #fileID, line: Int = #line, function: String = #function) {
        log(.debug, message(), fields, file: file, line: line, function: function)
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// `<priority>message key=value…` on stderr when stderr is the journal's stream, the form journald
/// reads from a service's stderr (`SyslogLevelPrefix=`, on by default). Anywhere else (a terminal,
/// a file, a pipe: `stopsheetd --demo 2> log`), where a person or a script reads it, the prefix is
/// a word instead, and only for warnings and worse: `warning: refresh failed …`. Decided once, at
/// start-up, as systemd's own tools decide it: `JOURNAL_STREAM` names stderr's device and inode.
public struct StderrLogSink: LogSink {
    private let priorityPrefix: Bool

    public init(priorityPrefix: Bool = StderrLogSink.stderrIsTheJournal()) { self.priorityPrefix = priorityPrefix }

    /// Whether `JOURNAL_STREAM` (`DEVICE:INODE`, set by systemd for the stream it connected)
    /// names the file stderr is now; a variable inherited by a child whose stderr went elsewhere
    /// does not.
    public static func stderrIsTheJournal(_ journalStream: String? = getenv("JOURNAL_STREAM").map { String(cString: $0) }) -> Bool {
        let parts = journalStream?.split(separator: ":", omittingEmptySubsequences: false) ?? []
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var info = stat()
        guard fstat(2, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    public func write(_ entry: LogEntry) {
        printError(line(entry))
    }

    /// The line `write` prints for `entry`.
    func line(_ entry: LogEntry) -> String {
        let prefix = priorityPrefix ? "<\(entry.level.rawValue)>" : entry.level >= .warning ? "\(entry.level.name): " : ""
        // Escaped, so text from a client or an upstream cannot end this line and forge another
        // entry with a priority of its choosing.
        var text = prefix + Log.oneLine(entry.message)
        for (key, value) in entry.fields { text += " \(key)=\(Log.oneLine(value))" }
        return text
    }
}

extension Log {
    /// `text` with control characters escaped (`\n`, `\u{1B}`, …) and cut to about `maxBytes`
    /// of UTF-8: fit for one log line or a status field, whoever wrote the text.
    public static func oneLine(_ text: String, maxBytes: Int = .max) -> String {
        let limit = max(maxBytes, 8) - 3
        // 0xC2 and 0xE2 lead the C1 controls and U+2028/9; a false hit only costs the slow path.
        if text.utf8.count <= limit, !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }) {
            return text
        }
        var result = ""
        var bytes = 0
        for scalar in text.unicodeScalars {
            let piece: String
            switch scalar.value {
            case 0x0A: piece = "\\n"
            case 0x0D: piece = "\\r"
            case 0x09: piece = "\\t"
            case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029: piece = "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: piece = String(scalar)
            }
            // Without a limit (`.max`) this never holds: no text has Int.max - 3 bytes.
            if bytes + piece.utf8.count > limit {
                result += "…"
                break
            }
            result += piece
            bytes += piece.utf8.count
        }
        return result
    }
}
