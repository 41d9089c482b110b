import Synchronization

/// What the server has seen since it started: a snapshot, for `health` and tests.
public struct ServerCounters: Sendable, Equatable {
    public var accepted = 0
    /// Turned away at `maxConnections` with the busy line.
    public var rejectedBusy = 0
    /// Lines that were not JSON (-32700), including invalid UTF-8 and too deep nesting.
    public var parseErrors = 0
    /// Request objects that were not valid JSON-RPC (-32600), batch elements included.
    public var invalidRequests = 0
    /// Lines over `maxLineBytes` (-32003).
    public var oversizedLines = 0
    /// Closed once done: the client ended and had its answers, or the daemon's stop drained it.
    public var closedFinished = 0
    public var closedIdle = 0
    /// Closed after `stuckTimeout` over `maxPendingOutputBytes`.
    public var closedStuck = 0
    /// Hung up or reset with answers still owed (EPIPE, ECONNRESET, EPOLLHUP mid-request).
    public var clientsVanished = 0
    /// Bytes read from clients, and bytes of the answers made for them (counted as each line is
    /// answered, whether or not the client stays to read it; busy lines of refused connections
    /// excluded).
    public var bytesIn = 0
    public var bytesOut = 0
    /// Notification lines pushed to subscribers (none until `subscribe` exists).
    public var notificationsSent = 0

    public init() {}
}

/// The live counters: written on the loop thread, read from anywhere.
final class AtomicServerCounters: Sendable {
    let accepted = Atomic<Int>(0)
    let rejectedBusy = Atomic<Int>(0)
    let parseErrors = Atomic<Int>(0)
    let invalidRequests = Atomic<Int>(0)
    let oversizedLines = Atomic<Int>(0)
    let closedFinished = Atomic<Int>(0)
    let closedIdle = Atomic<Int>(0)
    let closedStuck = Atomic<Int>(0)
    let clientsVanished = Atomic<Int>(0)
    let bytesIn = Atomic<Int>(0)
    let bytesOut = Atomic<Int>(0)
    let notificationsSent = Atomic<Int>(0)

    var snapshot: ServerCounters {
        var counters = ServerCounters()
        counters.accepted = accepted.load(ordering: .relaxed)
        counters.rejectedBusy = rejectedBusy.load(ordering: .relaxed)
        counters.parseErrors = parseErrors.load(ordering: .relaxed)
        counters.invalidRequests = invalidRequests.load(ordering: .relaxed)
        counters.oversizedLines = oversizedLines.load(ordering: .relaxed)
        counters.closedFinished = closedFinished.load(ordering: .relaxed)
        counters.closedIdle = closedIdle.load(ordering: .relaxed)
        counters.closedStuck = closedStuck.load(ordering: .relaxed)
        counters.clientsVanished = clientsVanished.load(ordering: .relaxed)
        counters.bytesIn = bytesIn.load(ordering: .relaxed)
        counters.bytesOut = bytesOut.load(ordering: .relaxed)
        counters.notificationsSent = notificationsSent.load(ordering: .relaxed)
        return counters
    }
}

extension Atomic<Int> {
    func increment() { wrappingAdd(1, ordering: .relaxed) }

    /// For a counter only one thread writes (the serving loop): a plain load and store, without
    /// the locked read-modify-write of `wrappingAdd`, which the per-request path would pay for.
    /// Readers on other threads see each value whole, perhaps a moment late.
    func add(byItsOnlyWriter amount: Int) { store(load(ordering: .relaxed) &+ amount, ordering: .relaxed) }
}
