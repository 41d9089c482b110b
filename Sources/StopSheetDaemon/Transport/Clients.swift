#if canImport(Glibc)
import Glibc
#endif

/// The loop's clients, after Redis's `networking.c` beside `ae.c`: the connections by fd, who
/// may come in (the accept policy), who has been silent or stuck too long (the timeouts), and
/// how many bytes all of them hold (the memory budget). Book-keeping only, no system calls: the
/// loop asks and acts. Owned by the loop thread, inside its `EventLoop`.
struct Clients<Handler: ConnectionHandler> {
    private let limits: ServerLimits
    private let idleNanos: Int64
    private let stuckNanos: Int64
    /// Indexed by fd, as Redis does: descriptors are small and dense.
    private(set) var byFD: [Connection<Handler>?] = []
    private(set) var count = 0
    /// Open connections per peer uid, for `maxConnectionsPerUID`.
    private var countByUID: [UInt32: Int] = [:]
    /// The daemon's own uid, which like root may use the reserved slots.
    private let ownUID = DaemonUser.uid
    /// Unsent answers and unanswered requests of all connections (`Connection.bufferedBytes`).
    private var bufferedTotal = 0
    /// Connections with `pausedForBudget` set: serviced again once the total is under budget.
    private var pausedCount = 0
    /// Over budget, the one connection read on all the same until it holds no part of a line
    /// (`letOneThroughIfStalled`).
    private(set) var letThrough: Connection<Handler>?

    init(limits: ServerLimits) {
        self.limits = limits
        idleNanos = limits.idleTimeout.clampedNanoseconds
        stuckNanos = limits.stuckTimeout.clampedNanoseconds
    }

    subscript(fd: Int32) -> Connection<Handler>? {
        fd >= 0 && Int(fd) < byFD.count ? byFD[Int(fd)] : nil
    }

    // MARK: - Who comes in

    /// Why a new connection from `peer` is turned away, or nil when it may come in. Root and the
    /// daemon's own uid may use every slot; anyone else neither the reserved ones nor more than
    /// `maxConnectionsPerUID`, so one local user cannot lock the others (or the admin) out.
    func refusal(of peer: PeerCredentials) -> ConnectionRefusal? {
        if count >= limits.maxConnections { return .full }
        guard peer.uid != 0, peer.uid != ownUID else { return nil }
        if count >= limits.maxConnections - limits.reserve { return .reserved(limits.reserve) }
        if countByUID[peer.uid, default: 0] >= limits.maxConnectionsPerUID {
            return .perUID(peer.uid, limit: limits.maxConnectionsPerUID)
        }
        return nil
    }

    mutating func add(_ connection: Connection<Handler>) {
        let index = Int(connection.fd)
        if index >= byFD.count { byFD.append(contentsOf: repeatElement(nil, count: index + 1 - byFD.count)) }
        byFD[index] = connection
        count += 1
        countByUID[connection.peer.uid, default: 0] += 1
    }

    /// Counts `connection` out; false when it was not in (closed already).
    mutating func remove(_ connection: Connection<Handler>) -> Bool {
        guard connection === self[connection.fd] else { return false }
        byFD[Int(connection.fd)] = nil
        count -= 1
        bufferedTotal -= connection.accountedBytes
        setPausedForBudget(connection, false)
        if connection === letThrough { letThrough = nil }
        if let held = countByUID[connection.peer.uid], held > 1 {
            countByUID[connection.peer.uid] = held - 1
        } else {
            countByUID[connection.peer.uid] = nil
        }
        return true
    }

    // MARK: - Who stays

    /// Why `connection` is closed on this tick, if it is.
    func timedOut(_ connection: Connection<Handler>, now: Int64) -> CloseReason? {
        if let since = connection.owedSince, now - since >= stuckNanos { return .stuck }
        // A deferred answer outstanding is our wait, not the client's silence; answers owed are
        // the stuck timeout's business.
        if idleNanos > 0, !connection.handler.isWaiting, connection.unsent == 0, now - connection.lastActivity >= idleNanos {
            return .idle
        }
        return nil
    }

    // MARK: - The memory budget

    var overBudget: Bool { bufferedTotal >= limits.maxBufferedBytes }

    /// Some connection is held back until the total is under budget again.
    var anyPausedForBudget: Bool { pausedCount > 0 }

    /// How much of `scratch` one read may fill. Over budget, only a little: a connection read
    /// then held nothing, and one read must not undo the budget.
    func readSize(of scratch: Int) -> Int { overBudget ? 4096 : scratch }

    /// Unsent bytes past which a connection gets no more answers for now. Over budget, a
    /// connection owed answers gets no more (limit: what it holds now); one owed none still
    /// gets one, so clients that read what they are sent are served.
    var outputAllowance: Int { overBudget ? 0 : limits.maxOutputBytes }

    /// Whether `connection` is neither read from nor answered for now: over budget, it holds
    /// bytes, and it is not the one let through.
    func holdsBack(_ connection: Connection<Handler>) -> Bool {
        overBudget && connection.bufferedBytes > 0 && connection !== letThrough
    }

    /// Over budget with no answer unsent anywhere, every byte held is part of a line: no
    /// client's reading can bring the total down, only more of a line, which completes it
    /// (answered, its bytes given back) or makes it too long (dropped, a -32003 error). The
    /// first connection holding part of a line is then let through, read on alone until it holds
    /// none, so no client waits for its idle timeout and memory stays within the budget plus one
    /// line. Returns it; nil when an answer unsent may still bring the total down, or one is
    /// through already.
    mutating func letOneThroughIfStalled() -> Connection<Handler>? {
        guard letThrough == nil, overBudget else { return nil }
        var first: Connection<Handler>?
        for case let connection? in byFD {
            guard connection.unsent == 0 else { return nil }
            if first == nil, connection.input.hasBufferedBytes { first = connection }
        }
        letThrough = first
        return first
    }

    /// Brings the total up to date with what `connection` holds now; the one let through is
    /// held back like the others again once it holds no part of a line.
    mutating func account(_ connection: Connection<Handler>) {
        guard connection === self[connection.fd] else { return }  // closed: counted out
        let held = connection.bufferedBytes
        bufferedTotal += held - connection.accountedBytes
        connection.accountedBytes = held
        if connection === letThrough, !connection.input.hasBufferedBytes { letThrough = nil }
    }

    mutating func setPausedForBudget(_ connection: Connection<Handler>, _ paused: Bool) {
        guard connection.pausedForBudget != paused else { return }
        connection.pausedForBudget = paused
        pausedCount += paused ? 1 : -1
    }
}

/// Why a new connection is turned away: `reason` is its busy line's `data` (protocol.md).
enum ConnectionRefusal: Equatable {
    /// At `maxConnections`.
    case full
    /// Only the last slots are left, which only root and the daemon's own uid may take.
    case reserved(Int)
    /// The peer's uid has its `maxConnectionsPerUID`.
    case perUID(UInt32, limit: Int)

    var reason: String {
        switch self {
        case .full: "too many connections"
        case .reserved(let slots): "too many connections; the last \(slots) are reserved for root"
        case .perUID(let uid, let limit): "too many connections from uid \(uid) (limit \(limit))"
        }
    }
}
