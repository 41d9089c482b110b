import StopSheetCore

/// Who sent a request, from `SO_PEERCRED` on the connection.
public struct PeerCredentials: Sendable, Equatable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}

/// What a method handler sees besides its params.
public struct RPCContext: Sendable {
    public var peer: PeerCredentials

    public init(peer: PeerCredentials) { self.peer = peer }
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

/// A shortcut handler for one-string-param calls: `(param name, param value, context)`; nil
/// leaves the call to the general handler (see `Dispatcher.registerCompact`).
public typealias RPCCompactHandler = @Sendable (_ name: String, _ value: String, _ context: RPCContext) -> RPCReply?

/// The handler of `Dispatcher.registerExact`: the param's value as bytes (plain ASCII) → the
/// encoded result, or nil to leave the call to the other paths.
public typealias RPCExactHandler = @Sendable (_ value: UnsafeRawBufferPointer) -> [UInt8]?
