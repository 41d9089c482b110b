import Glibc
import Posix

/// The request headers a keyed upstream wants (`--alerts-headers-file` and its siblings): an
/// agency's key in `Authorization`, `Ocp-Apim-Subscription-Key`, `DB-Api-Key`, `apikey`…
///
/// The file is read as curl's `-H @file` reads one: a `Name: value` per line, blank lines and
/// `#` comments allowed. It is a secret, so it is refused, as ssh refuses a private key, when its
/// group or others may read or write it, and when it is not a regular file (a FIFO must not hang a
/// start). Under systemd it is a credential (`LoadCredential=`, `%d/alerts-headers`).
///
/// The values are the secret: they go to libcurl and nowhere else. Every text this type makes
/// (its description, its errors, its mirror) names the file and the header names, never a value,
/// so no log line, answer or error can quote one by accident.
public struct RequestHeaders: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// The file's last path component, as messages name it (`alerts-headers` for a credential).
    public let fileName: String
    private let fields: [Field]

    /// One `Name: value` line.
    private struct Field: Equatable, Sendable {
        let name: String
        let value: String
    }

    /// No headers: the fetch sends the URL alone.
    public static let none = RequestHeaders(fileName: "", fields: [])

    private init(fileName: String, fields: [Field]) {
        self.fileName = fileName
        self.fields = fields
    }

    /// The names, in the file's order.
    public var names: [String] { fields.map(\.name) }

    public var isEmpty: Bool { fields.isEmpty }

    /// `2 headers from alerts-headers (Authorization, X-Client)`: what the journal may say.
    public var description: String {
        "\(fields.count) header\(fields.count == 1 ? "" : "s") from \(fileName) (\(names.joined(separator: ", ")))"
    }

    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    /// The lines handed to libcurl: the one use of the values.
    var requestLines: [String] { fields.map { "\($0.name): \($0.value)" } }

    /// Why a headers file is refused: its path, and a line number when one line is at fault.
    /// Never quotes the file's text.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Headers files are a few lines; 64 KiB bounds what a mistaken path can make the daemon hold.
    static let maxFileBytes = 64 << 10

    /// Reads and checks `path`: owner-only, a regular file, every line well formed.
    public static func load(_ path: String) throws(Failure) -> RequestHeaders {
        var bytes: [UInt8] = []
        do {
            try LocalFile.stream(path, nonBlocking: true, opened: { (info) throws(Failure) in
                let type = info.st_mode & S_IFMT
                guard type == S_IFREG else { throw Failure(description: "\(path) is not a regular file") }
                // What ssh says of a private key: a secret others can read (or replace) is refused.
                guard info.st_mode & 0o077 == 0 else {
                    throw Failure(description: "\(path) is accessible by group or others (mode \(String(info.st_mode & 0o777, radix: 8))); it holds secrets: chmod 600 it, or give it as a systemd credential (LoadCredential=)")
                }
                guard info.st_size <= maxFileBytes else { throw Failure(description: "\(path) is larger than \(maxFileBytes) bytes") }
            }) { (chunk) throws(Failure) in
                guard chunk.count <= maxFileBytes - bytes.count else { throw Failure(description: "\(path) is larger than \(maxFileBytes) bytes") }
                bytes.append(contentsOf: chunk)
            }
        } catch let failure as Failure {
            throw failure
        } catch let failure as LocalFile.Failure {
            throw Failure(description: failure.message)
        } catch {
            preconditionFailure("only the failures above are thrown here")
        }
        return try parse(bytes, path: path)
    }

    /// The file's lines: `Name: value`, as curl's `-H @file` reads them (the value trimmed of
    /// spaces and tabs at both ends). A name is an RFC 9110 token; a value holds no CR, LF or NUL
    /// (a CR before the newline ends the line, as in a file written on Windows); a name with no
    /// value is an error, not curl's "remove this header".
    static func parse(_ bytes: [UInt8], path: String) throws(Failure) -> RequestHeaders {
        var fields: [Field] = []
        for (index, rawLine) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let where_ = "\(path):\(index + 1)"
            var line = rawLine[...]
            if line.last == 0x0D { line = line.dropLast() }
            let content = line.drop { $0 == 0x20 || $0 == 0x09 }
            if content.isEmpty || content.first == UInt8(ascii: "#") { continue }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                throw Failure(description: "\(where_): not a header line (expected Name: value)")
            }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
                throw Failure(description: "\(where_): the header name is not an RFC 9110 token (letters, digits and !#$%&'*+-.^_`|~, no spaces)")
            }
            var value = line[(colon + 1)...]
            while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            let nameText = String(decoding: name, as: UTF8.self)
            guard !value.isEmpty else { throw Failure(description: "\(where_): header \(nameText) has no value") }
            guard !value.contains(where: { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F }) else {
                throw Failure(description: "\(where_): the value of header \(nameText) holds a control character")
            }
            guard let text = String(validating: value, as: UTF8.self) else {
                throw Failure(description: "\(where_): the value of header \(nameText) is not UTF-8")
            }
            fields.append(Field(name: nameText, value: text))
        }
        guard !fields.isEmpty else { throw Failure(description: "\(path) has no header lines") }
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        return RequestHeaders(fileName: fileName, fields: fields)
    }

    /// RFC 9110 §5.6.2: tchar.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
