import StopSheetCore
import StopSheetProtocol

/// Method name → handler. Built once at start-up, then read-only on the serving loop.
public struct Dispatcher: Sendable {
    private var handlers: [String: RPCHandler] = [:]
    /// The one exact-bytes shortcut, if any: `ExactRequest`'s line shape for one method and param.
    private(set) var exact: ExactRoute?

    public init() {}

    /// A later registration of the same name replaces the earlier one, and drops its shortcut,
    /// which was written to agree with the handler replaced. Untyped: for tests' stand-in methods.
    mutating func register(_ method: String, _ handler: @escaping RPCHandler) {
        handlers[method] = handler
        if exact?.request.method == method { exact = nil }
    }

    /// `Method`'s handler, which takes its params already read and checked (`ParamsDecoder`,
    /// made once here): a request whose params do not decode is answered -32602 without it.
    public mutating func register<Method: RPCMethodType>(_ method: Method.Type, _ handler: @escaping RPCMethodHandler<Method>) {
        let decoder = ParamsDecoder<Method.Params>()
        register(Method.name) { json, context in
            let params: Method.Params
            do throws(RPCError) { params = try decoder.decode(json) } catch { return .error(error) }
            return handler(params, context).untyped
        }
    }

    /// A shortcut for the single most common call, `{"<param>": "<value>"}` in `ExactRequest`'s
    /// exact bytes: the handler takes the value and replies exactly as `method`'s general handler
    /// would for those params (by building the same validated params value, e.g. `StopSheetQuery`).
    /// Lines of any other shape are parsed once, the general way. One method at most: a second
    /// registration replaces the first.
    ///
    /// `stamp`, when given, says the handler's results depend on the value, the clock and what
    /// the stamp counts alone (not on the caller): a result is then reused for the same value
    /// within one loop round while the stamp is unchanged (`ExactReplies`).
    ///
    /// The handler answers with `Method`'s `Result`, as the general handler does.
    public mutating func registerExact<Method: RPCMethodType>(_ method: Method.Type, param: Method.Params.CodingKeys, stamp: (@Sendable () -> UInt64)? = nil,
                                                               _ handler: @escaping @Sendable (_ value: String, _ context: RPCContext) -> MethodReply<Method.Result>) {
        registerExact(Method.name, param: param.stringValue, stamp: stamp) { value, context in handler(value, context).untyped }
    }

    /// Untyped: for tests' stand-in methods.
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
