#if canImport(Glibc)
import Glibc
#endif

/// One client's socket: its input (requests read, framed into lines), its output (answers not
/// yet sent), its handler (the protocol side) and what the loop tracks about it. Lives on the
/// loop thread only.
///
/// Both buffers are here, so the loop sees what a connection holds without asking its handler.
/// Answers go out in request order because the handler works on one line at a time and appends
/// each answer to this single output buffer; while a deferred answer is outstanding no further
/// line of this connection is looked at (others are unaffected). Pipelined answers accumulate in
/// that buffer and leave in one `send` per round (Redis's reply buffer), not one per answer.
final class Connection<Handler: ConnectionHandler> {
    enum ReadOutcome {
        /// This many bytes were added to `input`.
        case data(Int)
        case wouldBlock
        case endOfInput
        case failed(Int32)
    }

    /// Whether the socket took everything shows in `unsent`; only failure needs telling.
    enum FlushOutcome {
        case ok
        case failed(Int32)
    }

    /// The socket, closed once, by the loop when it closes the connection (`EventLoop.close`).
    let socket: Descriptor
    /// Its number: the loop's index of its connections and its epoll key.
    let fd: Int32
    let generation: UInt32
    let peer: PeerCredentials
    let handler: Handler
    // Both buffers are handed to the handler `inout` across calls the compiler cannot see into
    // (the dispatcher's methods), so it would check every access to them at run time, reads
    // included: several a round, each dearer than the work it guards. No access can overlap:
    // the handler, the only code running while it holds them, is made before this object and
    // never given it, and its `wake` reaches the loop's list, not these.
    /// Requests read and not yet taken by the handler.
    @exclusivity(unchecked) var input: LineFramer
    /// Answers, sent and not yet sent.
    @exclusivity(unchecked) var output = OutputBuffer()
    /// The client shut down its sending side (or closed): answer what was received, then close.
    private(set) var readClosed = false
    /// Epoll events currently registered, so `epoll_ctl` runs only when they change.
    var registeredEvents: UInt32
    /// Monotonic nanoseconds of the last whole request taken or answer bytes sent: what the idle
    /// timeout measures. A byte that completes no request is not activity.
    private(set) var lastActivity: Int64
    /// Since when answers have been owed without the client taking any: set when output is left
    /// unsent, moved on whenever the socket takes some, cleared once all is sent.
    private(set) var owedSince: Int64?
    /// Listed in the loop's connections to service at the end of this round.
    var deferred = false
    /// What this connection adds to the loop's buffered total, as last counted (`Clients`).
    var accountedBytes = 0
    /// Not read from nor answered because the loop's buffered total is over its budget.
    var pausedForBudget = false

    init(socket: Descriptor, generation: UInt32, peer: PeerCredentials, handler: Handler, maxLineBytes: Int, registeredEvents: UInt32, now: Int64) {
        self.socket = socket
        self.fd = socket.raw
        self.generation = generation
        self.peer = peer
        self.handler = handler
        self.input = LineFramer(maxLineBytes: maxLineBytes)
        self.registeredEvents = registeredEvents
        self.lastActivity = now
    }

    var unsent: Int { output.unsent }

    /// Bytes sent so far of what `output` holds.
    var sent: Int { output.sent }

    /// What this connection holds in memory for its client: answers not sent, requests not answered.
    var bufferedBytes: Int { unsent + input.bufferedByteCount }

    /// Nothing owed in either direction: no line or partial line held, no deferred answer, nothing unsent.
    var isQuiet: Bool { !handler.isWaiting && unsent == 0 && !input.hasBufferedBytes }

    /// One read per readiness event: with level-triggered epoll the rest comes next round, so a
    /// client streaming requests cannot starve the others.
    func read(into scratch: UnsafeMutableRawBufferPointer) -> ReadOutcome {
        let count = Glibc.read(fd, scratch.baseAddress, scratch.count)
        if count > 0 {
            input.append(UnsafeRawBufferPointer(rebasing: scratch[..<count]))
            return .data(count)
        }
        if count == 0 {
            readClosed = true
            return .endOfInput
        }
        switch errno {
        case EAGAIN, EWOULDBLOCK, EINTR: return .wouldBlock
        case let code: return .failed(code)
        }
    }

    /// Lets the handler answer the lines held, within `allowance` unsent bytes; true when it
    /// stopped there with lines left. Input it took (a whole line) is the client's activity.
    func answer(allowance: Int, now: Int64) -> Bool {
        let held = input.bufferedByteCount
        let outputFull = handler.answer(&input, into: &output, outputLimit: sent + allowance, inputEnded: readClosed, now: now)
        if input.bufferedByteCount != held { lastActivity = now }
        return outputFull
    }

    func flush(now: Int64) -> FlushOutcome {
        guard output.unsent > 0 else {
            owedSince = nil
            return .ok
        }
        switch output.send(to: fd) {
        case .failed(let code):
            return .failed(code)
        case .sent(let progressed):
            if progressed { lastActivity = now }
            if unsent == 0 { owedSince = nil } else if progressed || owedSince == nil { owedSince = now }
            return .ok
        }
    }

    /// Called on the loop's tick: a connection that sent nothing since `since` gives back a big
    /// output buffer it no longer fills.
    func releaseIdleBuffer(quietSince since: Int64) {
        guard lastActivity < since else { return }
        output.releaseIdle()
    }
}

