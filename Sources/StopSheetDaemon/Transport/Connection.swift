#if canImport(Glibc)
import Glibc
#endif

/// One client's socket: its session (the protocol side), its answers not yet sent, and what
/// the loop tracks about it. Lives on the loop thread only.
///
/// Answers go out in request order because the session works on one line at a time and appends
/// each answer to this single output buffer; while a `.later` is outstanding no further line of
/// this connection is looked at (others are unaffected). Pipelined answers accumulate in that
/// buffer and leave in one `send` per round (Redis's reply buffer), not one per answer.
final class Connection {
    enum ReadOutcome {
        case data
        case wouldBlock
        case endOfInput
        case failed(Int32)
    }

    /// Whether the socket took everything shows in `unsent`; only failure needs telling.
    enum FlushOutcome {
        case ok
        case failed(Int32)
    }

    let fd: Int32
    let generation: UInt32
    let peer: PeerCredentials
    let session: Session
    /// Answers, sent and not yet sent. Unchecked for exclusivity: only the loop thread touches
    /// it, and the run-time check of its long accesses (the session writes a round's answers
    /// into it) cost a few percent of an answer.
    @exclusivity(unchecked) var output = OutputBuffer()
    /// The client shut down its sending side (or closed): answer what was received, then close.
    var readClosed = false
    /// Epoll events currently registered, so `epoll_ctl` runs only when they change.
    var registeredEvents: UInt32
    /// Monotonic nanoseconds of the last whole request taken or answer bytes sent: what the idle
    /// timeout measures. A byte that completes no request is not activity.
    var lastActivity: Int64
    /// Since when answers have been owed without the client taking any: set when output is left
    /// unsent, moved on whenever the socket takes some, cleared once all is sent.
    private(set) var owedSince: Int64?
    /// Listed in the loop's connections to service at the end of this round.
    var deferred = false
    /// What this connection adds to the loop's buffered total, as last counted.
    var accountedBytes = 0
    /// Not read from nor answered because the loop's buffered total is over its budget.
    var pausedForBudget = false
    /// The session's count of lines taken, when last looked at.
    var linesSeen = 0

    init(fd: Int32, generation: UInt32, peer: PeerCredentials, session: Session, registeredEvents: UInt32, now: Int64) {
        self.fd = fd
        self.generation = generation
        self.peer = peer
        self.session = session
        self.registeredEvents = registeredEvents
        self.lastActivity = now
    }

    var unsent: Int { output.unsent }

    /// Bytes sent so far of what `output` holds.
    var sent: Int { output.sent }

    /// What this connection holds in memory for its client: answers not sent, requests not answered.
    var bufferedBytes: Int { unsent + session.bufferedInputBytes }

    /// Nothing owed in either direction: no line or partial line held, no job, nothing unsent.
    var isQuiet: Bool { !session.isWaiting && unsent == 0 && !session.hasBufferedInput }

    /// One read per readiness event: with level-triggered epoll the rest comes next round, so a
    /// client streaming requests cannot starve the others.
    func read(into scratch: UnsafeMutableRawBufferPointer, now: Int64) -> ReadOutcome {
        let count = Glibc.read(fd, scratch.baseAddress, scratch.count)
        if count > 0 {
            session.receive(UnsafeRawBufferPointer(rebasing: scratch[..<count]))
            return .data
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
