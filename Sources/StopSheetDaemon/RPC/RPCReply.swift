import StopSheetCore
import StopSheetProtocol

/// What a method handler sees besides its params.
public struct RPCContext: Sendable {
    public var peer: PeerCredentials
    /// The caller's connection's notifications (for `subscribe`); nil outside a connection.
    var notifications: NotificationQueue?

    public init(peer: PeerCredentials) { self.peer = peer }

    init(peer: PeerCredentials, notifications: NotificationQueue?) {
        self.peer = peer
        self.notifications = notifications
    }
}

/// A method's answer. `later` is for work that must not run on the serving loop (e.g. `refresh`):
/// the handler starts it and calls `complete` exactly once, from any thread. The connection
/// answers nothing after that request until it completes, so answers stay in request order.
public enum RPCReply: Sendable {
    /// The encoded JSON of the `result` member.
    case result([UInt8])
    case error(RPCError)
    case later(@Sendable (_ complete: @escaping @Sendable (RPCReply) -> Void) -> Void)

    public static func result(_ json: JSON) -> RPCReply { .result(json.encoded) }
}

/// A method handler; called on the serving loop, so it must return promptly.
public typealias RPCHandler = @Sendable (_ params: JSON?, _ context: RPCContext) -> RPCReply

/// A method's handler by its type: its params read and checked (`Dispatcher.register`), its
/// answer that method's `Result`, so it is registered for that method alone and answers what the
/// contract says it does.
public typealias RPCMethodHandler<Method: RPCMethodType> = @Sendable (_ params: Method.Params, _ context: RPCContext) -> MethodReply<Method.Result>

/// `RPCReply` typed by the method's result: the result is a `PreEncoded<Result>`, which only
/// encoding a `Result` (or a form of it) makes.
public enum MethodReply<Result: Sendable>: Sendable {
    case result(PreEncoded<Result>)
    case error(RPCError)
    case later(@Sendable (_ complete: @escaping @Sendable (MethodReply) -> Void) -> Void)

    /// The serving loop's reply: the same, as bytes.
    var untyped: RPCReply {
        switch self {
        case .result(let result): .result(result.bytes)
        case .error(let error): .error(error)
        case .later(let start): .later { complete in start { complete($0.untyped) } }
        }
    }

    /// The result of `body`, or its error.
    static func of(_ body: () throws(RPCError) -> PreEncoded<Result>) -> MethodReply {
        do { return .result(try body()) } catch { return .error(error) }
    }
}

/// The handler of `Dispatcher.registerExact`: the one param's value (a plain string, see
/// `ExactRequest`) → the reply `method`'s general handler gives for those params. Never `.later`.
public typealias RPCExactHandler = @Sendable (_ value: String, _ context: RPCContext) -> RPCReply
