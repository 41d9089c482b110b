import StopSheetCore
import StopSheetProtocol

/// Answers one line's message, writing into the session's output as answers become known.
/// Owned by the loop thread, inside its `Session`.
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
    /// Error answers are counted as they are written (requests by method, in the session).
    private let counters: RequestCounters
    private var next = 0
    /// The id of the entry whose `.later` is outstanding; nil inside means a notification.
    private var waitingFor: JSON?? = nil
    /// Whether the batch's `[` is written.
    private var opened = false

    /// Part of the line is written: a batch's `[` and the answers before a `.later` it waits on.
    var isOpen: Bool { opened }

    init(_ message: RPCMessage, counters: RequestCounters) {
        self.counters = counters
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

    mutating func advance<Output: JSONSink>(_ dispatcher: Dispatcher, context: RPCContext, out: inout Output) -> Progress {
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
        if opened { out.write(Self.batchEnd) }
        return .finished
    }

    /// Answers the entry that was waiting; call `advance` next for the rest.
    mutating func resume<Output: JSONSink>(with reply: RPCReply, out: inout Output) {
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

    private static let batchEnd = Array("]\n".utf8)

    private mutating func write<Output: JSONSink>(id: JSON, reply: RPCReply, out: inout Output) {
        if case .later = reply { return }  // never passed: callers turn it into waiting or an error
        if case .error(let error) = reply { counters.countError(code: error.code) }
        if isBatch {
            out.write(opened ? UInt8(ascii: ",") : UInt8(ascii: "["))
            opened = true
        }
        RPCResponse.append(id: id, reply, to: &out)
        if !isBatch { out.write(UInt8(ascii: "\n")) }
    }
}
