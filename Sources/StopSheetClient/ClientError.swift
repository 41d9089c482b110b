import Posix
import StopSheetCore

/// Why a call got no result. Descriptions are one line, fit for a command-line tool's stderr.
public enum ClientError: Error, CustomStringConvertible {
    case invalidSocketPath(UnixSocketPathError)
    case socket(Errno)
    case cannotConnect(path: String, Errno)
    case send(Errno)
    case receive(Errno)
    /// No whole answer line within the timeout (or a send blocked that long).
    case timedOut
    case closedByDaemon
    /// An answer line longer than the client's `maxLineBytes`.
    case answerTooLong(limit: Int)
    case unreadableAnswer(JSONParser.Failure)
    /// The daemon answered with a JSON-RPC error.
    case rpc(RPCError)

    public var description: String {
        switch self {
        case .invalidSocketPath(let error): return "\(error)"
        case .socket(let error): return "socket: \(error)"
        case .cannotConnect(let path, let error): return "cannot connect to \(path): \(error)"
        case .send(let error): return "send: \(error)"
        case .receive(let error): return "recv: \(error)"
        case .timedOut: return "no answer within the timeout"
        case .closedByDaemon: return "the daemon closed the connection"
        case .answerTooLong(let limit): return "an answer longer than \(limit) bytes"
        case .unreadableAnswer(let error): return "unreadable answer: \(error)"
        case .rpc(let error): return "\(error)"
        }
    }
}

/// A JSON-RPC error answer: `code`, `message` and `data` as the daemon sent them (protocol.md
/// "Errors"), and the whole answer object for callers that print it raw.
public struct RPCError: Error, CustomStringConvertible {
    public let code: Int?
    public let message: String
    public let data: JSON?
    public let answer: JSON

    init(answer: JSON) {
        let error = answer["error"]
        code = error?["code"]?.intValue
        message = error?["message"]?.stringValue ?? "error"
        data = error?["data"]
        self.answer = answer
    }

    /// `message (code): data`, the data only when it is a string (it is the human detail).
    public var description: String {
        let detail = data?.stringValue.map { ": \($0)" } ?? ""
        return "\(message) (\(code.map(String.init) ?? "?"))\(detail)"
    }
}
