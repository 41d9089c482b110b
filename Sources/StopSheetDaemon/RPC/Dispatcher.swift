import StopSheetCore
import StopSheetProtocol

/// Method name → handler. Built once at start-up, then read-only on the serving loop.
public struct Dispatcher: Sendable {
    private var handlers: [String: RPCHandler] = [:]
    /// The one exact-bytes shortcut, if any: `ExactRequest`'s line shape for one method and param.
    private(set) var exact: ExactRoute?

    public init() {}

    /// A later registration of the same name replaces the earlier one, and drops its shortcut,
    /// which was written to agree with the handler replaced.
    public mutating func register(_ method: String, _ handler: @escaping RPCHandler) {
        handlers[method] = handler
        if exact?.request.method == method { exact = nil }
    }

    public mutating func register(_ method: RPCMethod, _ handler: @escaping RPCHandler) { register(method.name, handler) }

    /// A shortcut for the single most common call, `{"<param>": "<value>"}` in `ExactRequest`'s
    /// exact bytes: the handler takes the value and replies exactly as `method`'s general handler
    /// would for those params (by building the same validated params value, e.g. `StopSheetQuery`).
    /// Lines of any other shape are parsed once, the general way. One method at most: a second
    /// registration replaces the first.
    ///
    /// `stamp`, when given, says the handler's results depend on the value, the clock and what
    /// the stamp counts alone (not on the caller): a result is then reused for the same value
    /// within one loop round while the stamp is unchanged (`ExactReplies`).
    public mutating func registerExact(_ method: RPCMethod, param: String, stamp: (@Sendable () -> UInt64)? = nil,
                                       _ handler: @escaping RPCExactHandler) {
        precondition(method.paramNames.contains(param), "\(param) is not a param of \(method.name)")
        registerExact(method.name, param: param, stamp: stamp, handler)
    }

    mutating func registerExact(_ method: String, param: String, stamp: (@Sendable () -> UInt64)? = nil, _ handler: @escaping RPCExactHandler) {
        precondition(handlers[method] != nil, "a shortcut needs the general handler of \(method) registered first")
        exact = ExactRoute(request: ExactRequest(method: method, paramName: param), stamp: stamp, handler: handler)
    }

    public var methods: [String] { handlers.keys.sorted() }

    public func reply(to request: RPCRequest, context: RPCContext) -> RPCReply {
        guard let handler = handlers[request.method] else { return .error(.methodNotFound(request.method)) }
        return handler(request.params, context)
    }
}

/// The shortcut's matcher and handler in one box, so that taking it per line copies one
/// reference, not the matcher's strings and bytes and the closure, which the fast path would
/// otherwise pay on every line. Immutable; read on the loop thread.
final class ExactRoute: Sendable {
    let request: ExactRequest
    let stamp: (@Sendable () -> UInt64)?
    let handler: RPCExactHandler

    init(request: ExactRequest, stamp: (@Sendable () -> UInt64)?, handler: @escaping RPCExactHandler) {
        self.request = request
        self.stamp = stamp
        self.handler = handler
    }
}
