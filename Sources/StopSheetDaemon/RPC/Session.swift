import StopSheetCore
import StopSheetProtocol

/// The JSON-RPC side of one connection, between the connection's lines and the dispatcher's
/// requests: the loop's `ConnectionHandler`. Lines in (taken from the connection's input),
/// answer bytes out (`answer(_:into:…)`). It owns the one parse of each line (fast path
/// included), batch sequencing (`LineAnswer`), the deferred (`.later`) answer it may wait on, and
/// the accounting and logging of client mistakes. It holds no buffer of the connection's and no
/// file descriptor, and never does I/O.
///
/// Owned by the loop thread: every method runs there. Only a `Resumption` crosses threads, and
/// it comes back through the `resume` hand-over the loop gave at creation.
///
/// Answers go into an output buffer the caller hands in, whole lines at a time except while a
/// batch waits on a `.later` (then its `[…` is written and `atLineBoundary` is false): a feature
/// that pushes lines of its own (notifications) appends them when `atLineBoundary` holds.
final class Session: ConnectionHandler {
    /// A deferred answer's completion on its way back to the loop thread. Its token tells a stale
    /// one (connection gone, fd reused, completed twice) apart from the one awaited.
    struct Resumption: Sendable {
        fileprivate let token: UInt64
        fileprivate let reply: RPCReply
    }

    private struct Waiting {
        let token: UInt64
        var answer: LineAnswer
    }

    private let host: SessionHost
    private let context: RPCContext
    private let resume: @Sendable (Resumption) -> Void
    private var waiting: Waiting?
    /// Notifications owed to the client (subscriptions), written between whole lines.
    let notifications: NotificationQueue

    /// `resume` must hand its argument back to the loop thread and there to `resume(_:into:)` of
    /// this session; it is called from any thread, at most once per deferred answer. `wake`
    /// asks the loop, on its thread, to call `answer(_:into:…)` soon: notifications are queued.
    init(peer: PeerCredentials, host: SessionHost, resume: @escaping @Sendable (Resumption) -> Void, wake: @escaping () -> Void = {}) {
        self.host = host
        let notifications = NotificationQueue(wake: wake)
        self.notifications = notifications
        self.context = RPCContext(peer: peer, notifications: notifications)
        self.resume = resume
    }

    /// A `.later` is outstanding: no further line is looked at until it completes.
    var isWaiting: Bool { waiting != nil }

    /// Nothing half-written in the output: a whole line of another kind may be appended.
    var atLineBoundary: Bool { waiting?.answer.isOpen != true }

    static func refusalLine(_ refusal: ConnectionRefusal, host: SessionHost) -> [UInt8] { host.busyLine(refusal) }

    /// Answers complete lines of `input` into `output` until one waits on a `.later`, none is
    /// left, or `output` has grown past `outputLimit` bytes; true in the last case (lines may be
    /// left). `inputEnded`: the client sent its last byte, so a final line without newline
    /// counts. Queued notifications go first, so one queued before a request was read precedes
    /// its answer. `now`: the loop's round, whose exact-route replies may be reused (`ExactReplies`).
    func answer(_ input: inout LineFramer, into output: inout OutputBuffer, outputLimit: Int, inputEnded: Bool, now: Int64) -> Bool {
        if !notifications.isEmpty, atLineBoundary {
            let (written, more) = notifications.write(into: &output, outputLimit: outputLimit)
            host.notificationsSent.add(written)
            if more { return true }
        }
        while waiting == nil {
            guard output.count <= outputLimit else { return true }
            guard let event = input.next() ?? (inputEnded ? input.finish() : nil) else { return false }
            // Counted per line, not when sent: a `stats` answer then counts exactly the lines
            // before it, however the client's bytes were split into reads.
            let start = output.count
            defer { host.bytesOut.add(output.count - start) }
            switch event {
            case .tooLarge:
                host.countTooLargeLine()
                logClientError("request line longer than \(host.limits.maxLineBytes) bytes")
                output.write(host.tooLargeLine)
            case .line(let range):
                answerLine(range, of: input.buffer, into: &output, round: now)
            }
        }
        return false
    }

    /// Writes a completed deferred answer and goes on with the rest of its line; false when the
    /// resumption is stale. Call `answer(_:into:…)` next for further lines.
    func resume(_ resumption: Resumption, into output: inout OutputBuffer) -> Bool {
        guard var waiting, waiting.token == resumption.token else { return false }
        let start = output.count
        defer { host.bytesOut.add(output.count - start) }
        self.waiting = nil
        waiting.answer.resume(with: resumption.reply, out: &output)
        advance(waiting.answer, into: &output)
        return true
    }

    /// The connection is closed: its subscriptions end with it.
    func end() { notifications.end() }

    // MARK: - One line

    private func answerLine<Output: JSONSink>(_ range: Range<Int>, of bytes: [UInt8], into output: inout Output, round: Int64) {
        if answerExact(range, of: bytes, into: &output, round: round) { return }
        guard let message = RPCMessage.parse(bytes[range], maxDepth: host.limits.maxDepth, maxBatch: host.limits.maxBatch)
        else { return }
        count(message)
        advance(LineAnswer(message, counters: host.requests), into: &output)
    }

    /// The most common line answered from its bytes alone (`ExactRequest`), with the reply the
    /// general path would give, or the one given to the same line earlier in the round
    /// (`ExactReplies`); false leaves the line to the general parser.
    private func answerExact<Output: JSONSink>(_ range: Range<Int>, of bytes: [UInt8], into output: inout Output, round: Int64) -> Bool {
        guard host.limits.maxDepth >= ExactRequest.depth, let exact = host.dispatcher.exact else { return false }
        return bytes.withUnsafeBytes { all in
            let line = UnsafeRawBufferPointer(rebasing: all[range])
            guard let id = exact.request.id(in: line) else { return false }
            let encodedID = UnsafeRawBufferPointer(rebasing: line[id])
            let rest = UnsafeRawBufferPointer(rebasing: line[id.upperBound...])
            // Read before the handler runs, so a change meanwhile is never credited to its reply.
            let stamp = exact.stamp?()
            if let stamp, let result = host.exactReplies.reply(for: rest, round: round, stamp: stamp) {
                host.requests.exactMethod.add()
                RPCResponse.appendLine(encodedID: encodedID, reply: .result(result), to: &output)
                return true
            }
            guard let value = exact.request.value(in: line, after: id) else { return false }
            // Plain ASCII: up to 15 bytes the String is stored inline, not allocated.
            let reply = exact.handler(String(decoding: UnsafeRawBufferPointer(rebasing: line[value]), as: UTF8.self), context)
            host.requests.exactMethod.add()
            switch reply {
            case .result(let result) where stamp != nil: host.exactReplies.remember(result, for: rest)
            case .error(let error): host.requests.countError(code: error.code)
            default: break
            }
            RPCResponse.appendLine(encodedID: encodedID, reply: reply, to: &output)
            return true
        }
    }

    /// Runs a line's entries until done or one waits on a `.later`, which it then starts.
    private func advance<Output: JSONSink>(_ answer: LineAnswer, into output: inout Output) {
        var answer = answer
        guard case .waiting(let start) = answer.advance(host.dispatcher, context: context, out: &output) else { return }
        let token = host.nextToken()
        waiting = Waiting(token: token, answer: answer)
        let resume = resume
        start { reply in resume(Resumption(token: token, reply: reply)) }
    }

    // MARK: - Counting, and client mistakes

    private func count(_ message: RPCMessage) {
        switch message {
        case .single(let entry): count(entry)
        case .batch(let entries): for entry in entries { count(entry) }
        }
    }

    private func count(_ entry: RPCEntry) {
        switch entry {
        case .request(let request): host.requests.countRequest(method: request.method)
        case .invalid(let error, _): count(error)
        }
    }

    private func count(_ error: RPCError) {
        logClientError("\(error.message): \(error.data?.stringValue ?? "")")
    }

    private func logClientError(_ message: @autoclosure () -> String) {
        Log.clientError(context.peer, message())
    }
}

/// What the sessions of one loop share: the dispatcher, the limits, the counters (the server's
/// and the per-method, per-code ones, which the server made with the dispatcher), the canned
/// lines, and the token counter that keeps deferred answers apart across connections (a reused
/// fd gets a new session, never an old token). Owned by the loop thread.
final class SessionHost {
    let dispatcher: Dispatcher
    let limits: ServerLimits
    let counters: ServerCounterTable
    let requests: RequestCounters
    /// The exact route's replies of the current round. Unchecked exclusivity: only the session
    /// answering a line touches it, and calls out to nothing meanwhile.
    @exclusivity(unchecked) var exactReplies = ExactReplies()
    /// The counters every line touches, looked up once.
    let bytesOut: Counter, notificationsSent: Counter
    /// Sent to a connection turned away at the connection limit, before it is closed.
    private let busyLine: [UInt8]
    let tooLargeLine: [UInt8]
    private let busyCode: Int
    private let tooLargeCode: Int
    private var lastToken: UInt64 = 0

    init(dispatcher: Dispatcher, limits: ServerLimits, counters: ServerCounterTable, requests: RequestCounters? = nil) {
        self.dispatcher = dispatcher
        self.limits = limits
        self.counters = counters
        (bytesOut, notificationsSent) = (counters[.bytesOut], counters[.notificationsSent])
        self.requests = requests ?? RequestCounters(dispatcher)
        let busy = RPCError.serverBusy(ConnectionRefusal.full.reason), tooLarge = RPCError.requestTooLarge(limit: limits.maxLineBytes)
        (busyLine, busyCode) = (RPCResponse.errorLine(busy), busy.code)
        (tooLargeLine, tooLargeCode) = (RPCResponse.errorLine(tooLarge), tooLarge.code)
    }

    /// The -32004 line for a connection turned away (the common one made once), counted among
    /// the error answers.
    fileprivate func busyLine(_ refusal: ConnectionRefusal) -> [UInt8] {
        requests.countError(code: busyCode)
        return refusal == .full ? busyLine : RPCResponse.errorLine(.serverBusy(refusal.reason))
    }

    /// The too-large line answered a line over the limit.
    fileprivate func countTooLargeLine() { requests.countError(code: tooLargeCode) }

    fileprivate func nextToken() -> UInt64 {
        lastToken &+= 1
        return lastToken
    }
}
