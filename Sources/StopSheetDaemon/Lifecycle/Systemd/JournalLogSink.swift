import CSystemd
import Glibc

/// Writes entries to journald as structured records, so `journalctl STOPSHEET_EVENT=refresh_failed`
/// or `journalctl UPSTREAM=alerts -o json` work without parsing messages.
///
/// Threads: any; each entry is one `sd_journal_sendv` call, which is thread-safe.
public struct JournalLogSink: LogSink {
    public static let syslogIdentifier = "stopsheetd"
    /// The environment variable naming the instance (`Environment=STOPSHEET_INSTANCE=%i` in
    /// stopsheetd@.service), and the field every entry then carries, so that
    /// `journalctl STOPSHEET_INSTANCE=a` tells one agency's daemon from another's.
    public static let instanceField = "STOPSHEET_INSTANCE"

    /// Fields the sink sets itself; an entry field of the same name is dropped rather than
    /// turned into a second, contradicting value.
    private static let ownFields: Set<String> = ["MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "CODE_FILE", "CODE_LINE", "CODE_FUNC", instanceField]

    private let fallback = StderrLogSink()
    /// The instance's name, nil (no field) for the default instance and a daemon run by hand.
    let instance: String?

    public init(instance: String? = getenv(JournalLogSink.instanceField).map { String(cString: $0) }) {
        self.instance = instance.flatMap { $0.isEmpty ? nil : $0 }
    }

    public func write(_ entry: LogEntry) {
        // journald gone (stopped, or the socket vanished from a namespace): keep the line on
        // stderr, which systemd also collects, rather than lose it.
        if Self.send(record(of: entry)) < 0 { fallback.write(entry) }
    }

    /// The journal record of `entry`: the sink's own fields, then the entry's under names
    /// journald keeps, none of them the sink's own.
    func record(of entry: LogEntry) -> [(String, String)] {
        var record: [(String, String)] = [
            ("MESSAGE", entry.message),
            ("PRIORITY", String(entry.level.rawValue)),
            ("SYSLOG_IDENTIFIER", Self.syslogIdentifier),
            ("CODE_FILE", entry.file),
            ("CODE_LINE", String(entry.line)),
            ("CODE_FUNC", entry.function),
        ]
        if let instance { record.append((Self.instanceField, instance)) }
        for (key, value) in entry.fields {
            guard let name = Self.fieldName(key), !Self.ownFields.contains(name) else { continue }
            record.append((name, value))
        }
        return record
    }

    /// One `FIELD=value` iovec per field, all pointing into one buffer. sd_journal_sendv frames
    /// values containing newlines (or any byte) itself, so nothing is escaped here.
    static func send(_ record: [(String, String)]) -> Int32 {
        var buffer: [UInt8] = []
        var spans: [(offset: Int, length: Int)] = []
        buffer.reserveCapacity(record.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count + 1 })
        for (name, value) in record {
            let offset = buffer.count
            buffer.append(contentsOf: name.utf8)
            buffer.append(UInt8(ascii: "="))
            buffer.append(contentsOf: value.utf8)
            spans.append((offset, buffer.count - offset))
        }
        return buffer.withUnsafeMutableBytes { raw -> Int32 in
            let base = raw.baseAddress!
            var vectors = spans.map { iovec(iov_base: base + $0.offset, iov_len: $0.length) }
            return vectors.withUnsafeMutableBufferPointer { sd_journal_sendv($0.baseAddress, Int32($0.count)) }
        }
    }

    /// A journald-acceptable field name, or nil. journald silently drops fields whose names are
    /// not uppercase ASCII letters, digits and `_` (not leading, as `_` marks trusted fields set
    /// by journald itself; not a leading digit) up to 64 bytes — so a typo like `station_id` is
    /// uppercased and other stray characters become `_` instead of vanishing.
    static func fieldName(_ raw: String) -> String? {
        var name: [UInt8] = []
        for byte in raw.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                name.append(byte)
            case UInt8(ascii: "a")...UInt8(ascii: "z"):
                name.append(byte - 32)
            default:
                name.append(UInt8(ascii: "_"))
            }
        }
        while name.first == UInt8(ascii: "_") { name.removeFirst() }
        guard let first = name.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first), name.count <= 64 else {
            return nil
        }
        return String(decoding: name, as: UTF8.self)
    }
}

/// journald when it is there and nobody is watching a terminal, stderr otherwise: a developer
/// running `stopsheetd` by hand sees its lines, a service gets structured records. The socket's
/// path and the descriptor looked at are parameters for the tests; the daemon passes neither.
public func makeDefaultLogSink(journalSocket: String = "/run/systemd/journal/socket", stderr: Int32 = 2) -> any LogSink {
    if access(journalSocket, F_OK) == 0 && isatty(stderr) == 0 {
        return JournalLogSink()
    }
    return StderrLogSink()
}
