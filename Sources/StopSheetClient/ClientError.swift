import Posix
import StopSheetCore
// The client's API speaks the protocol's types (RPCError, StopType, Methods): its users get them with it.
@_exported import StopSheetProtocol

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
    /// `waitUntilLoaded` or `connect(socketPath:waitingUpTo:)` gave up: what it still waits
    /// for, in one line.
    case stillWaiting(String)
    /// A result or notification not of the protocol's shape (`Answer`): what did not fit.
    case unexpectedAnswer(String)
    /// A result or notification without a member its type requires (`data.alerts.producedAt`):
    /// most likely a daemon of an older major protocol version (`ProtocolVersion`).
    case missingMember(method: String, member: String)

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
        case .stillWaiting(let line): return line
        case .unexpectedAnswer(let why): return "an answer not of the protocol's shape: \(why)"
        case .missingMember(let method, let member):
            return "\(method) answered without its required member \(member) (a daemon of an older protocol than \(ProtocolVersion.text)?)"
        }
    }
}
