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

/// A method's handler by its type: its params read and checked (`Dispatcher.register`), so it is
/// registered for that method alone.
public typealias RPCMethodHandler<Method: RPCMethodType> = @Sendable (_ params: Method.Params, _ context: RPCContext) -> RPCReply

/// The handler of `Dispatcher.registerExact`: the one param's value (a plain string, see
/// `ExactRequest`) → the reply `method`'s general handler gives for those params. Never `.later`.
public typealias RPCExactHandler = @Sendable (_ value: String, _ context: RPCContext) -> RPCReply
