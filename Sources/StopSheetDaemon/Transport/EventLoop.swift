#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// The serving loop, after Redis's `ae`: one thread, level-triggered epoll, non-blocking sockets.
/// It accepts, reads, writes, closes and keeps time; what the bytes mean is each connection's
/// `Session`'s business, which it calls with what was read and which writes the answers into the
/// connection's output. Sessions return promptly; a deferred answer comes back through the inbox.
/// All state in this class belongs to the loop thread; `Server` is the thread-safe face.
///
/// Level-triggered, because a connection is paused often (a `.later` outstanding, output over its
/// limit, input ended): pausing is then just dropping EPOLLIN from its interest, and resuming needs
/// no memory of readiness missed meanwhile, as edge-triggered epoll would.
final class EventLoop {
    private enum CloseReason {
        /// Done: input ended and everything was answered, or nothing was in flight at hang-up.
        case finished
        case drained
        case vanished(Int32)
        case idle
        case stuck
    }

    private let server: Server
    private let limits: ServerLimits
    private let epollFD: Int32
    private let wakeFD: Int32
    private var listeners: [Int32]
    /// Indexed by fd, as Redis does: descriptors are small and dense.
    private var connections: [Connection?] = []
    private var liveCount = 0
    /// Open connections per peer uid, for `maxConnectionsPerUID`.
    private var connectionsByUID: [UInt32: Int] = [:]
    /// The daemon's own uid, which like root may use the reserved slots.
    private let ownUID = geteuid()
    /// Unsent answers and unanswered requests of all connections (`Connection.bufferedBytes`).
    private var bufferedTotal = 0
    /// Connections with `pausedForBudget` set: serviced again once the total is under budget.
    private var pausedForBudget = 0
    /// Tags each connection's epoll events: an event read in the same round in which its
    /// connection closed and a new one got the same fd must not reach the new one.
    private var nextGeneration: UInt32 = 0
    private let sessions: SessionHost
    private var now: Int64
    private var nextTick: Int64
    private var acceptPausedUntil: Int64?
    private var drainDeadline: Int64?

    private let tickNanos: Int64
    private let idleNanos: Int64
    private let stuckNanos: Int64
    private let drainNanos: Int64

    /// Connections with input read this round, answered and written once every ready event is
    /// read (Redis's clients-pending-write): see `serviceDeferred`.
    private var deferred: [Connection] = []
    private var scratch = [UInt8](repeating: 0, count: 64 << 10)
    private var events = [epoll_event](repeating: epoll_event(), count: 256)
    private var acceptThrottle = LogThrottle(intervalNanoseconds: 10_000_000_000)
    private var busyThrottle = LogThrottle(intervalNanoseconds: 60_000_000_000)

    /// Pause after EMFILE/ENFILE: long enough not to spin on a full descriptor table, short
    /// enough that service resumes as soon as descriptors free up.
    private static let acceptBackoffNanos: Int64 = 100_000_000

    private static let readable = EPOLLIN.rawValue
    private static let writable = EPOLLOUT.rawValue
    private static let hangUp = EPOLLHUP.rawValue | EPOLLERR.rawValue

    init(server: Server, listeners: [Int32]) throws(ServerError) {
        self.server = server
        self.limits = server.limits
        self.listeners = listeners
        self.tickNanos = max(limits.tickInterval.clampedNanoseconds, 1_000_000)
        self.idleNanos = limits.idleTimeout.clampedNanoseconds
        self.stuckNanos = limits.stuckTimeout.clampedNanoseconds
        self.drainNanos = limits.drainTimeout.clampedNanoseconds
        self.sessions = server.makeSessionHost()
        now = SystemClock.monotonicNanoseconds()
        nextTick = now + tickNanos

        for fd in listeners {
            do throws(ListenerError) { try prepareListener(fd) } catch {
                throw .listener(error)
            }
        }
        epollFD = clinux_epoll_create()
        guard epollFD >= 0 else { throw .system(call: "epoll_create1", errno: errno) }
        wakeFD = clinux_eventfd()
        guard wakeFD >= 0 else {
            let code = errno
            Glibc.close(epollFD)
            throw .system(call: "eventfd", errno: code)
        }
        for fd in [wakeFD] + listeners where !register(fd, generation: 0, events: Self.readable) {
            let code = errno
            Glibc.close(wakeFD)
            Glibc.close(epollFD)
            throw .system(call: "epoll_ctl", errno: code)
        }
        server.inbox.open(wakeFD: wakeFD)
    }

    /// Returns once `stop()` has drained every connection or the drain timeout passed; throws
    /// only if epoll itself breaks, which no client can cause.
    func run() throws(ServerError) {
        defer { shutDown() }
        while true {
            if now >= nextTick { tick() }
            if let resume = acceptPausedUntil, now >= resume { resumeAccepting() }
            if let deadline = drainDeadline, liveCount == 0 || now >= deadline { return }

            var wakeAt = nextTick
            if let resume = acceptPausedUntil { wakeAt = min(wakeAt, resume) }
            if let deadline = drainDeadline { wakeAt = min(wakeAt, deadline) }
            // Round up: waking a hair early would only spin once more.
            let timeout = Int32(clamping: max(0, (wakeAt - now + 999_999) / 1_000_000))

            let count = events.withUnsafeMutableBufferPointer { epoll_wait(epollFD, $0.baseAddress, Int32($0.count), timeout) }
            now = SystemClock.monotonicNanoseconds()
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                // EBADF/EINVAL/EFAULT: the epoll set itself is broken; retrying would spin.
                throw .system(call: "epoll_wait", errno: code)
            }
            for index in 0..<Int(count) {
                let event = events[index]
                handle(key: event.data.u64, events: event.events)
            }
            serviceDeferred()
            if pausedForBudget > 0, !overBudget { resumePausedForBudget() }
        }
    }

    // MARK: - Events

    private func handle(key: UInt64, events: UInt32) {
        let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: key))
        let generation = UInt32(truncatingIfNeeded: key >> 32)
        if generation == 0 {
            if fd == wakeFD {
                takeInbox()
            } else if listeners.contains(fd) {
                acceptConnections(from: fd)
            }
        } else if let connection = connection(fd), connection.generation == generation {
            if events & Self.hangUp != 0 {
                // Peer fully closed (or reset): nobody is left to read an answer. A half-close
                // (shutdown SHUT_WR) is not this: it arrives as EPOLLIN and a zero-byte read.
                close(connection, connection.isQuiet ? .finished : .vanished(ECONNRESET))
                return
            }
            if events & Self.writable != 0, case .failed(let code) = connection.flush(now: now) {
                close(connection, .vanished(code))
                return
            }
            if events & Self.readable != 0, read(connection) == nil { return }
            if !connection.deferred {
                connection.deferred = true
                deferred.append(connection)
            }
        }
    }

    /// Answers and writes for the round's ready connections, after all of them were read. Each
    /// send wakes a client, which on a busy machine often preempts this thread on the spot: a
    /// send in the middle of the round costs a context switch before the next read, while sends
    /// at its end go out just before the loop would sleep anyway.
    private func serviceDeferred() {
        for connection in deferred {
            connection.deferred = false
            // Closed meanwhile, its fd perhaps already reused by a connection accepted this round.
            guard connection === self.connection(connection.fd) else { continue }
            service(connection)
        }
        deferred.removeAll(keepingCapacity: true)
    }

    private func connection(_ fd: Int32) -> Connection? {
        fd >= 0 && Int(fd) < connections.count ? connections[Int(fd)] : nil
    }

    /// Reads once; nil when the read failed and the connection is closed. Over budget, only a
    /// little: a connection read then held nothing, and one read must not undo the budget.
    private func read(_ connection: Connection) -> Connection.ReadOutcome? {
        let size = overBudget ? Self.readSizeOverBudget : scratch.count
        let outcome = scratch.withUnsafeMutableBytes { connection.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<size]), now: now) }
        if case .failed(let code) = outcome {
            close(connection, .vanished(code))
            return nil
        }
        return outcome
    }

    /// Brings a connection up to date after anything happened to it: answers what can be
    /// answered, writes, closes it when it is done, and sets what epoll watches for it.
    private func service(_ connection: Connection) {
        defer { account(connection) }
        while true {
            // Over budget, a connection owed answers gets no more (limit: what it holds now); one
            // owed none still gets one, so clients that read what they are sent are served.
            let allowance = overBudget ? 0 : limits.maxOutputBytes
            let outputFull = connection.session.answer(
                into: &connection.output, outputLimit: connection.sent + allowance, inputEnded: connection.readClosed)
            if connection.session.linesTaken != connection.linesSeen {
                connection.linesSeen = connection.session.linesTaken
                connection.lastActivity = now
            }
            if case .failed(let code) = connection.flush(now: now) {
                close(connection, .vanished(code))
                return
            }
            account(connection)
            // The socket took enough (over budget: all of it): go on with lines already read,
            // which no event would bring back (their bytes are out of the kernel's buffer and in ours).
            if outputFull, connection.unsent <= allowance { continue }
            guard connection.isQuiet else { break }
            if connection.readClosed {
                close(connection, .finished)
                return
            }
            guard drainDeadline != nil else { break }
            // Draining: close as soon as nothing the client already sent is left unanswered.
            switch read(connection) {
            case nil: return
            case .wouldBlock?:
                close(connection, .drained)
                return
            default: continue
            }
        }
        let heldBack = overBudget && connection.bufferedBytes > 0
        setPausedForBudget(connection, heldBack)
        var wanted: UInt32 = 0
        if !connection.readClosed, !connection.session.isWaiting, connection.unsent <= limits.maxOutputBytes, !heldBack {
            wanted |= Self.readable
        }
        if connection.unsent > 0 { wanted |= Self.writable }
        if wanted != connection.registeredEvents {
            if modify(connection.fd, generation: connection.generation, events: wanted) {
                connection.registeredEvents = wanted
            } else {
                close(connection, .vanished(errno))
            }
        }
    }

    /// A session queued notifications (inbox work, on this thread): service it at the end of
    /// this round. Never called while `serviceDeferred` walks the list.
    private func wake(_ fd: Int32, _ generation: UInt32) {
        guard let connection = connection(fd), connection.generation == generation, !connection.deferred else { return }
        connection.deferred = true
        deferred.append(connection)
    }

    private func resume(_ completion: LoopInbox.Completion) {
        guard let connection = connection(completion.fd),
              connection.session.resume(completion.resumption, into: &connection.output)
        else { return }
        service(connection)
    }

    // MARK: - The memory budget

    private static let readSizeOverBudget = 4096

    private var overBudget: Bool { bufferedTotal >= limits.maxBufferedBytes }

    /// Brings `bufferedTotal` up to date with what `connection` holds now.
    private func account(_ connection: Connection) {
        guard connection === self.connection(connection.fd) else { return }  // closed: counted out
        let held = connection.bufferedBytes
        bufferedTotal += held - connection.accountedBytes
        connection.accountedBytes = held
    }

    private func setPausedForBudget(_ connection: Connection, _ paused: Bool) {
        guard connection.pausedForBudget != paused else { return }
        connection.pausedForBudget = paused
        pausedForBudget += paused ? 1 : -1
    }

    /// The total fell under budget: connections held back get their turn, in fd order, until it
    /// is over again (the rest wait for the next chance).
    private func resumePausedForBudget() {
        for case let connection? in connections where connection.pausedForBudget {
            guard !overBudget else { return }
            service(connection)
        }
    }

    // MARK: - Accepting

    private func acceptConnections(from listener: Int32) {
        // A bounded batch per wake-up, so a connection storm cannot starve established clients.
        for _ in 0..<64 {
            let fd = clinux_accept4(listener)
            guard fd >= 0 else {
                switch errno {
                case EAGAIN, EWOULDBLOCK: return
                case EINTR, ECONNABORTED, EPROTO, EPERM: continue  // that one client's problem
                default:
                    // EMFILE/ENFILE/ENOBUFS/ENOMEM, or a broken listener: a level-triggered
                    // listener would report readiness again at once, so stop watching it briefly.
                    pauseAccepting(errno)
                    return
                }
            }
            var pid: Int32 = 0
            var uid: UInt32 = 0
            var gid: UInt32 = 0
            if clinux_peercred(fd, &pid, &uid, &gid) != 0 {
                // Unknown peer: an id no privilege check matches.
                (pid, uid, gid) = (0, UInt32.max, UInt32.max)
            }
            let peer = PeerCredentials(pid: pid, uid: uid, gid: gid)
            if let refusal = refusal(of: peer) {
                reject(fd, peer, refusal)
                continue
            }
            open(fd, peer)
        }
    }

    /// Why a new connection from `peer` is turned away, or nil when it may come in. Root and the
    /// daemon's own uid may use every slot; anyone else neither the reserved ones nor more than
    /// `maxConnectionsPerUID`, so one local user cannot lock the others (or the admin) out.
    private func refusal(of peer: PeerCredentials) -> String? {
        if liveCount >= limits.maxConnections { return SessionHost.connectionLimitReason }
        guard peer.uid != 0, peer.uid != ownUID else { return nil }
        if liveCount >= limits.maxConnections - limits.reserve {
            return "too many connections; the last \(limits.reserve) are reserved for root"
        }
        if connectionsByUID[peer.uid, default: 0] >= limits.maxConnectionsPerUID {
            return "too many connections from uid \(peer.uid) (limit \(limits.maxConnectionsPerUID))"
        }
        return nil
    }

    private func open(_ fd: Int32, _ peer: PeerCredentials) {
        nextGeneration = nextGeneration == UInt32.max ? 1 : nextGeneration + 1
        guard register(fd, generation: nextGeneration, events: Self.readable) else {
            Glibc.close(fd)
            return
        }
        let index = Int(fd)
        if index >= connections.count { connections.append(contentsOf: repeatElement(nil, count: index + 1 - connections.count)) }
        let inbox = server.inbox
        let generation = nextGeneration
        let session = Session(peer: peer, host: sessions, resume: { inbox.complete(LoopInbox.Completion(fd: fd, resumption: $0)) },
                              wake: { [weak self] in self?.wake(fd, generation) })
        connections[index] = Connection(fd: fd, generation: nextGeneration, peer: peer, session: session, registeredEvents: Self.readable, now: now)
        liveCount += 1
        connectionsByUID[peer.uid, default: 0] += 1
        server.openConnections.store(liveCount, ordering: .relaxed)
        server.liveCounters[.accepted].add()
    }

    /// One busy line saying why, then close. The socket is fresh, so its send buffer takes the
    /// line whole.
    private func reject(_ fd: Int32, _ peer: PeerCredentials, _ reason: String) {
        server.liveCounters[.refusedBusy].add()  // before the close, as in close(_:_:)
        let line = sessions.busyLine(reason: reason)
        _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        Glibc.close(fd)
        if let skipped = busyThrottle.admit(now: now) {
            Log.notice("turning clients away: \(reason) (uid \(peer.uid), \(liveCount) of \(limits.maxConnections) open)",
                       [("STOPSHEET_EVENT", "server_busy"), ("PEER_UID", String(peer.uid)), ("SUPPRESSED", String(skipped))])
        }
    }

    private func pauseAccepting(_ code: Int32) {
        if let skipped = acceptThrottle.admit(now: now) {
            Log.warning("accept failed: \(Errno(code)); pausing new connections briefly",
                        [("STOPSHEET_EVENT", "accept_error"), ("SUPPRESSED", String(skipped))])
        }
        guard acceptPausedUntil == nil else { return }
        for fd in listeners { _ = modify(fd, generation: 0, events: 0) }
        acceptPausedUntil = now + Self.acceptBackoffNanos
    }

    private func resumeAccepting() {
        acceptPausedUntil = nil
        for fd in listeners { _ = modify(fd, generation: 0, events: Self.readable) }
    }

    // MARK: - Inbox, ticks, shutdown

    private func takeInbox() {
        let batch = server.inbox.take()
        for work in batch.work { work() }
        for completion in batch.completions { resume(completion) }
        if batch.stopRequested, drainDeadline == nil { beginDrain() }
    }

    private func tick() {
        let previousTick = nextTick - tickNanos
        nextTick = now + tickNanos
        server.tickHandler?()
        for case let connection? in connections {
            connection.releaseIdleBuffer(quietSince: previousTick)
            if let since = connection.owedSince, now - since >= stuckNanos {
                close(connection, .stuck)
            } else if idleNanos > 0, !connection.session.isWaiting, connection.unsent == 0, now - connection.lastActivity >= idleNanos {
                // A `.later` outstanding is our wait, not the client's silence; answers owed are
                // the stuck timeout's business.
                close(connection, .idle)
            }
        }
    }

    /// Stop accepting; each connection closes once what it already sent is answered.
    private func beginDrain() {
        drainDeadline = now + drainNanos
        closeListeners()
        acceptPausedUntil = nil
        for case let connection? in connections { service(connection) }
    }

    private func closeListeners() {
        for fd in listeners { Glibc.close(fd) }
        listeners = []
    }

    private func shutDown() {
        closeListeners()
        for case let connection? in connections { close(connection, .drained) }
        server.inbox.close()
        Glibc.close(epollFD)
    }

    private func close(_ connection: Connection, _ reason: CloseReason) {
        let fd = connection.fd
        guard connection === self.connection(fd) else { return }
        connections[Int(fd)] = nil
        connection.session.end()
        liveCount -= 1
        bufferedTotal -= connection.accountedBytes
        setPausedForBudget(connection, false)
        if let count = connectionsByUID[connection.peer.uid], count > 1 {
            connectionsByUID[connection.peer.uid] = count - 1
        } else {
            connectionsByUID[connection.peer.uid] = nil
        }
        server.openConnections.store(liveCount, ordering: .relaxed)
        // Counted before the close, so a client that sees its end of stream sees the count too.
        defer { Glibc.close(fd) }
        switch reason {
        case .finished, .drained:
            server.liveCounters[.closedFinished].add()
        case .vanished(let code):
            server.liveCounters[.closedVanished].add()
            Log.clientError(connection.peer, "client went away with answers pending: \(Errno(code))")
        case .idle:
            server.liveCounters[.closedIdle].add()
            Log.clientError(connection.peer, "closed an idle connection")
        case .stuck:
            server.liveCounters[.closedStuck].add()
            Log.clientError(connection.peer, "closed a connection that stopped reading its answers")
        }
    }

    // MARK: - epoll

    private func register(_ fd: Int32, generation: UInt32, events: UInt32) -> Bool {
        control(EPOLL_CTL_ADD, fd, generation: generation, events: events)
    }

    private func modify(_ fd: Int32, generation: UInt32, events: UInt32) -> Bool {
        control(EPOLL_CTL_MOD, fd, generation: generation, events: events)
    }

    /// Generation 0 marks the loop's own fds (eventfd, listeners).
    private func control(_ operation: Int32, _ fd: Int32, generation: UInt32, events: UInt32) -> Bool {
        var event = epoll_event()
        event.events = events
        event.data.u64 = UInt64(generation) << 32 | UInt64(UInt32(bitPattern: fd))
        return epoll_ctl(epollFD, operation, fd, &event) == 0
    }
}
