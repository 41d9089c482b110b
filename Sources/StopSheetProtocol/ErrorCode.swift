/// Every error code the daemon answers with, and its message: protocol.md's "Errors" table, in its
/// order. The daemon, the client library, `stats` (one count per code) and `rpc.discover` read
/// this list; nothing else writes a code out.
public enum ErrorCode: Int, CaseIterable, Sendable {
    case parseError = -32700
    case invalidRequest = -32600
    case methodNotFound = -32601
    case invalidParams = -32602
    case internalError = -32603
    // Application codes (JSON-RPC reserves -32000…-32099 for the server's own errors).
    case unknownStop = -32001
    case notPermitted = -32002
    case requestTooLarge = -32003
    case serverBusy = -32004
    case notLoaded = -32005
    case subscriptionLimit = -32006
    case unknownSubscription = -32007

    /// The error object's `message`, the same for every answer with this code.
    public var message: String {
        switch self {
        case .parseError: "Parse error"
        case .invalidRequest: "Invalid request"
        case .methodNotFound: "Method not found"
        case .invalidParams: "Invalid params"
        case .internalError: "Internal error"
        case .unknownStop: "Unknown stop"
        case .notPermitted: "Not permitted"
        case .requestTooLarge: "Request too large"
        case .serverBusy: "Server busy"
        case .notLoaded: "Data not loaded"
        case .subscriptionLimit: "Subscription limit"
        case .unknownSubscription: "Unknown subscription"
        }
    }

    /// Codes any request may get, whatever its method; the others are listed per method.
    public static let anyRequest: [ErrorCode] = [.parseError, .invalidRequest, .methodNotFound, .invalidParams, .internalError, .requestTooLarge, .serverBusy]
}
