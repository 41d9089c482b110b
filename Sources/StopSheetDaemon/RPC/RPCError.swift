import StopSheetCore

/// A JSON-RPC error object. Standard codes plus the application codes documented in protocol.md.
public struct RPCError: Error, Equatable, Sendable {
    public var code: Int
    public var message: String
    public var data: JSON?

    public init(code: Int, message: String, data: JSON? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public static func parseError(_ detail: String) -> RPCError { RPCError(code: -32700, message: "Parse error", data: .string(detail)) }
    public static func invalidRequest(_ detail: String) -> RPCError { RPCError(code: -32600, message: "Invalid request", data: .string(detail)) }
    public static func methodNotFound(_ method: String) -> RPCError { RPCError(code: -32601, message: "Method not found", data: .string(method)) }
    public static func invalidParams(_ detail: String) -> RPCError { RPCError(code: -32602, message: "Invalid params", data: .string(detail)) }
    public static func internalError(_ detail: String) -> RPCError { RPCError(code: -32603, message: "Internal error", data: .string(detail)) }

    // Application codes (JSON-RPC reserves -32000…-32099 for the server's own errors).
    public static func unknownStop(_ stopID: String) -> RPCError { RPCError(code: -32001, message: "Unknown stop", data: .string(stopID)) }
    public static func notPermitted(_ detail: String) -> RPCError { RPCError(code: -32002, message: "Not permitted", data: .string(detail)) }
    public static func requestTooLarge(limit: Int) -> RPCError {
        RPCError(code: -32003, message: "Request too large", data: .string("request line longer than \(limit) bytes"))
    }
    public static func serverBusy(_ detail: String) -> RPCError { RPCError(code: -32004, message: "Server busy", data: .string(detail)) }
    public static func notLoaded(_ what: String) -> RPCError { RPCError(code: -32005, message: "Data not loaded", data: .string(what)) }
    public static func subscriptionLimit(_ detail: String) -> RPCError { RPCError(code: -32006, message: "Subscription limit", data: .string(detail)) }
    public static func unknownSubscription(_ id: String) -> RPCError { RPCError(code: -32007, message: "Unknown subscription", data: .string(id)) }

    public var json: JSON {
        var object = JSONObject([("code", .int(code)), ("message", .string(message))])
        if let data { object.append("data", data) }
        return .object(object)
    }
}
