import StopSheetCore

/// A JSON-RPC error object, as the daemon makes it and the client reads it: `code` and `message`
/// (`ErrorCode`'s), and `data`, the human detail (protocol.md "Errors").
public struct RPCError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: Int
    public var message: String
    public var data: JSON?

    public init(code: Int, message: String, data: JSON? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public init(_ code: ErrorCode, _ detail: String) {
        self.init(code: code.rawValue, message: code.message, data: .string(detail))
    }

    /// An answer's `error` member as received; a member missing or ill-typed reads as an
    /// internal error, so a caller always has a code to switch on.
    public init(json: JSON?) {
        code = json?[RPCEnvelope.code]?.intValue ?? ErrorCode.internalError.rawValue
        message = json?[RPCEnvelope.message]?.stringValue ?? "error"
        data = json?[RPCEnvelope.data]
    }

    /// The documented code, nil for one this protocol does not know.
    public var known: ErrorCode? { ErrorCode(rawValue: code) }

    public static func parseError(_ detail: String) -> RPCError { RPCError(.parseError, detail) }
    public static func invalidRequest(_ detail: String) -> RPCError { RPCError(.invalidRequest, detail) }
    public static func methodNotFound(_ method: String) -> RPCError { RPCError(.methodNotFound, method) }
    public static func invalidParams(_ detail: String) -> RPCError { RPCError(.invalidParams, detail) }
    public static func internalError(_ detail: String) -> RPCError { RPCError(.internalError, detail) }
    public static func unknownStop(_ stopID: String) -> RPCError { RPCError(.unknownStop, stopID) }
    public static func notPermitted(_ detail: String) -> RPCError { RPCError(.notPermitted, detail) }
    public static func requestTooLarge(limit: Int) -> RPCError { RPCError(.requestTooLarge, "request line longer than \(limit) bytes") }
    public static func serverBusy(_ detail: String) -> RPCError { RPCError(.serverBusy, detail) }
    public static func notLoaded(_ what: String) -> RPCError { RPCError(.notLoaded, what) }
    public static func subscriptionLimit(_ detail: String) -> RPCError { RPCError(.subscriptionLimit, detail) }
    public static func unknownSubscription(_ id: String) -> RPCError { RPCError(.unknownSubscription, id) }

    public var json: JSON {
        var object = JSONObject([(RPCEnvelope.code, .int(code)), (RPCEnvelope.message, .string(message))])
        if let data { object.append(RPCEnvelope.data, data) }
        return .object(object)
    }

    /// `message (code): data`, the data only when it is a string (it is the human detail).
    public var description: String {
        let detail = data?.stringValue.map { ": \($0)" } ?? ""
        return "\(message) (\(code))\(detail)"
    }
}
