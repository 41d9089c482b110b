import StopSheetCore

/// Method name → handler. Built once at start-up, then read-only on the serving loop.
public struct Dispatcher: Sendable {
    private var handlers: [String: RPCHandler] = [:]
    private var compactHandlers: [String: RPCCompactHandler] = [:]
    /// The one exact-bytes shortcut, if any: `ExactRequest`'s line shape for one method and param.
    private(set) var exact: (request: ExactRequest, handler: RPCExactHandler)?

    public init() {}

    /// A later registration of the same name replaces the earlier one, and drops its shortcut,
    /// which was written to agree with the handler replaced.
    public mutating func register(_ method: String, _ handler: @escaping RPCHandler) {
        handlers[method] = handler
        compactHandlers[method] = nil
        if exact?.request.method == method { exact = nil }
    }

    /// A shortcut for calls whose params are one string member (`CompactRequest`): it answers
    /// exactly as `method`'s general handler would for those params, or returns nil to leave the
    /// call to it. It never returns `.later`.
    public mutating func registerCompact(_ method: String, _ handler: @escaping RPCCompactHandler) {
        precondition(handlers[method] != nil, "a shortcut needs the general handler of \(method) registered first")
        compactHandlers[method] = handler
    }

    /// A shortcut for the single most common call, `{"<param>": "<value>"}` in `ExactRequest`'s
    /// exact bytes: the handler takes the value's bytes and returns the encoded result, exactly
    /// as `method`'s general handler would for those params, or nil to leave the call to the
    /// other paths. Only successes are answered here, so it needs no context and never errs.
    /// One method at most: a second registration replaces the first.
    public mutating func registerExact(_ method: String, param: String, _ handler: @escaping RPCExactHandler) {
        precondition(handlers[method] != nil, "a shortcut needs the general handler of \(method) registered first")
        exact = (ExactRequest(method: method, paramName: param), handler)
    }

    public var methods: [String] { handlers.keys.sorted() }

    /// The reply without building params, when a shortcut takes the call.
    func reply(to request: CompactRequest, context: RPCContext) -> RPCReply? {
        guard let handler = compactHandlers[request.method],
              let reply = handler(request.paramName, request.paramValue, context)
        else { return nil }
        if case .later = reply { return nil }
        return reply
    }

    public func reply(to request: RPCRequest, context: RPCContext) -> RPCReply {
        guard let handler = handlers[request.method] else { return .error(.methodNotFound(request.method)) }
        return handler(request.params, context)
    }
}

/// Answers one line's message, writing into the connection's output as answers become known.
///
/// Entries run in order. At a `.later` reply the answer stops (`advance` returns `.waiting`) and
/// picks up again with `resume`, so a batch line is complete, `]` and newline included, only once
/// every part is done. Laters in a batch run one after another: this keeps a client to one
/// outstanding background job per connection, batch or not. A notification's `.later` is waited
/// for too, for the same reason, though it is never answered.
///
/// Batches follow JSON-RPC 2.0 §6: one array with the answers that have an id, in request order,
/// and no line at all when every element was a notification.
struct LineAnswer {
    enum Progress {
        case finished
        case waiting(start: @Sendable (_ complete: @escaping @Sendable (RPCReply) -> Void) -> Void)
    }

    private enum Entries {
        case single(RPCEntry)
        case batch([RPCEntry])
    }

    private let entries: Entries
    private let isBatch: Bool
    private var next = 0
    /// The id of the entry whose `.later` is outstanding; nil inside means a notification.
    private var waitingFor: JSON?? = nil
    /// Whether the batch's `[` is written.
    private var opened = false

    init(_ message: RPCMessage) {
        switch message {
        case .single(let entry): (entries, isBatch) = (.single(entry), false)
        case .batch(let list): (entries, isBatch) = (.batch(list), true)
        }
    }

    private var count: Int {
        switch entries {
        case .single: return 1
        case .batch(let list): return list.count
        }
    }

    private func entry(at index: Int) -> RPCEntry {
        switch entries {
        case .single(let entry): return entry
        case .batch(let list): return list[index]
        }
    }

    mutating func advance(_ dispatcher: Dispatcher, context: RPCContext, out: inout [UInt8]) -> Progress {
        while next < count {
            let entry = entry(at: next)
            next += 1
            switch entry {
            case .invalid(let error, let id):
                write(id: id, reply: .error(error), out: &out)
            case .request(let request):
                let reply = dispatcher.reply(to: request, context: context)
                if case .later(let start) = reply {
                    waitingFor = .some(request.id)
                    return .waiting(start: start)
                }
                if let id = request.id { write(id: id, reply: reply, out: &out) }
            }
        }
        if opened { out.append(contentsOf: "]\n".utf8) }
        return .finished
    }

    /// Answers the entry that was waiting; call `advance` next for the rest.
    mutating func resume(with reply: RPCReply, out: inout [UInt8]) {
        guard case .some(let id) = waitingFor else { return }
        waitingFor = nil
        guard let id else { return }
        if case .later = reply {
            // A completion must carry the answer; chaining would let a job never end.
            write(id: id, reply: .error(.internalError("a deferred reply completed with another deferred reply")), out: &out)
        } else {
            write(id: id, reply: reply, out: &out)
        }
    }

    private mutating func write(id: JSON, reply: RPCReply, out: inout [UInt8]) {
        if case .later = reply { return }  // never passed: callers turn it into waiting or an error
        if isBatch {
            out.append(opened ? UInt8(ascii: ",") : UInt8(ascii: "["))
            opened = true
        }
        switch reply {
        case .result(let bytes): RPCResponse.appendResult(id: id, result: bytes, to: &out)
        case .error(let error): RPCResponse.appendError(id: id, error: error, to: &out)
        case .later: break
        }
        if !isBatch { out.append(UInt8(ascii: "\n")) }
    }
}
