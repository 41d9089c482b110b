#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// The serving loop, after Redis's `ae`: one thread, level-triggered epoll, non-blocking sockets.
/// It accepts, reads, writes, closes and keeps time; who may connect, how long a client may stay
/// silent and how many bytes all may hold are its `Clients`' rules. What the lines mean is each
/// connection's `Handler`'s business (`Session` for JSON-RPC), which takes them from the
/// connection's input and writes the answers into its output. Handlers return promptly; a
/// deferred answer comes back through the inbox. All state in this class belongs to the loop
/// thread; `LoopHandle` is the thread-safe face.
///
/// Level-triggered, because a connection is paused often (a `.later` outstanding, output over its
/// limit, input ended): pausing is then just dropping EPOLLIN from its interest, and resuming needs
/// no memory of readiness missed meanwhile, as edge-triggered epoll would.
///
/// `@exclusivity(unchecked)` marks the state every round touches whose run-time exclusivity
/// checks the compiler cannot drop, each dearer than the work it guards (as on `Connection`'s
/// buffers). None can see overlapping accesses: `Clients` calls out to nothing, `scratch` and
/// `events` serve one call at a time (`read`; `epoll_wait`), `deferred` is walked as a copy.
final class EventLoop<Handler: ConnectionHandler> {
    private let handle: LoopHandle
    private let limits: ServerLimits
    // Each descriptor is held by its one owner (`Descriptor`), closed once: the loop's own here,
    // each connection's by its `Connection`, the wake-up eventfd's by the inbox.
    private let epoll: Descriptor
    private let wakeFD: Int32
    /// Adopted once the loop has started: until then they are the caller's (`LoopHandle.run`).
    private var listeners: [Descriptor] = []
    @exclusivity(unchecked) private var clients: Clients<Handler>
    /// Tags each connection's epoll events: an event read in the same round in which its
    /// connection closed and a new one got the same fd must not reach the new one (nor must a
    /// wake-up from the closed one's handler).
    private var generations = ConnectionGenerations()
    private let host: Handler.Host
    private let bytesIn: Counter
    private var now: Int64
    private var nextTick: Int64
    private var acceptPausedUntil: Int64?
    /// Set when the stop begins: when the last connections are cut.
    private var drainDeadline: Int64?
    /// Set when the stop begins, nil again once passed: until then a quiet connection stays
    /// open for a request it may be writing (`ServerLimits.drainGrace`).
    private var graceEnd: Int64?

    private let tickNanos: Int64
    private let drainNanos: Int64
    private let graceNanos: Int64

    /// Connections with input read this round, answered and written once every ready event is
    /// read (Redis's clients-pending-write): see `serviceDeferred`.
    @exclusivity(unchecked) private var deferred: [Connection<Handler>] = []
    @exclusivity(unchecked) private var scratch = [UInt8](repeating: 0, count: 64 << 10)
    @exclusivity(unchecked) private var events = [epoll_event](repeating: epoll_event(), count: 256)
    private var acceptThrottle = LogThrottle(intervalNanoseconds: 10_000_000_000)
    private var busyThrottle = LogThrottle(intervalNanoseconds: 60_000_000_000)

    init(handle: LoopHandle, listeners: [Int32], host: Handler.Host) throws(ServerError) {
        self.handle = handle
        self.limits = handle.limits
        self.clients = Clients(limits: limits)
        (tickNanos, drainNanos, graceNanos) = (limits.tickNanoseconds, limits.drainTimeout.clampedNanoseconds, limits.graceNanoseconds)
        self.host = host
        bytesIn = handle.liveCounters[.bytesIn]
        now = SystemClock.monotonicNanoseconds()
        nextTick = now + tickNanos

        for fd in listeners {
            do throws(ListenerError) { try prepareListener(fd) } catch {
                throw .listener(error)
            }
        }
        let epollFD = clinux_epoll_create()
        guard epollFD >= 0 else { throw .system(call: "epoll_create1", errno: errno) }
        epoll = Descriptor(adopting: epollFD)
        let wake: Descriptor
        do throws(Errno) { wake = Descriptor(adopting: try EventFD.open()) } catch { throw .system(call: "eventfd", errno: error.code) }
        wakeFD = wake.raw
        for fd in [wakeFD] + listeners where !register(fd, generation: 0, events: Epoll.readable) {
            throw .system(call: "epoll_ctl", errno: errno)
        }
        self.listeners = listeners.map(Descriptor.init(adopting:))
        handle.inbox.open(wake: wake)
    }

    /// Returns once `stop()` has drained every connection or the drain timeout passed; throws
    /// only if epoll itself breaks, which no client can cause.
    func run() throws(ServerError) {
        defer { shutDown() }
        while true {
            if now >= nextTick { tick() }
            if let resume = acceptPausedUntil, now >= resume { resumeAccepting() }
            if let end = graceEnd, now >= end { endGrace() }
            if let deadline = drainDeadline, clients.count == 0 || now >= deadline { return }

            // Each time due by now was handled above (the tick moved `nextTick` on, the others
            // were cleared or returned), so the wake-up is ahead and the timeout at least 1 ms.
            let timeout = Self.waitMilliseconds(from: now, until: Self.earliest(nextTick, acceptPausedUntil, graceEnd, drainDeadline))

            let count = events.withUnsafeMutableBufferPointer { epoll_wait(epoll.raw, $0.baseAddress, Int32($0.count), timeout) }
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
            if clients.anyPausedForBudget, !clients.overBudget { resumePausedForBudget() }
        }
    }

    /// The first of the loop's times: the next tick, and each of the other three that is set.
    static func earliest(_ tick: Int64, _ first: Int64?, _ second: Int64?, _ third: Int64?) -> Int64 {
        min(min(tick, first ?? .max), min(second ?? .max, third ?? .max))
    }

    /// epoll_wait's timeout to wake at `wakeAt`: whole milliseconds, rounded up (waking a hair
    /// early would only spin once more).
    static func waitMilliseconds(from now: Int64, until wakeAt: Int64) -> Int32 {
        Int32(clamping: (wakeAt - now + 999_999) / 1_000_000)
    }

    // MARK: - Events

    private func handle(key: UInt64, events: UInt32) {
        let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: key))
        let generation = UInt32(truncatingIfNeeded: key >> 32)
        if generation == 0 {
            if fd == wakeFD {
                takeInbox()
            } else if listeners.contains(where: { $0.raw == fd }) {
                acceptConnections(from: fd)
            }
        } else if let connection = clients[fd], connection.generation == generation {
            if events & Epoll.hangUp != 0 {
                // Peer fully closed (or reset): nobody is left to read an answer. A half-close
                // (shutdown SHUT_WR) is not this: it arrives as EPOLLIN and a zero-byte read.
                close(connection, connection.isQuiet ? .finished : .vanished(ECONNRESET))
                return
            }
            if events & Epoll.writable != 0, case .failed(let code) = connection.flush(now: now) {
                close(connection, .vanished(code))
                return
            }
            if events & Epoll.readable != 0, read(connection) == nil { return }
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
            guard connection === clients[connection.fd] else { continue }
            service(connection)
        }
        deferred.removeAll(keepingCapacity: true)
    }

    /// Reads once (as much as the budget allows); nil when the read failed and the connection
    /// is closed.
    private func read(_ connection: Connection<Handler>) -> Connection<Handler>.ReadOutcome? {
        let size = clients.readSize(of: scratch.count)
        let outcome = scratch.withUnsafeMutableBytes { connection.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<size])) }
        switch outcome {
        case .data(let count): bytesIn.add(count)
        case .failed(let code):
            close(connection, .vanished(code))
            return nil
        case .wouldBlock, .endOfInput: break
        }
        return outcome
    }

    /// Brings a connection up to date after anything happened to it: answers what can be
    /// answered, writes, closes it when it is done, and sets what epoll watches for it.
    private func service(_ connection: Connection<Handler>) {
        defer { clients.account(connection) }
        while true {
            let allowance = clients.outputAllowance
            let outputFull = connection.answer(allowance: allowance, now: now)
            if case .failed(let code) = connection.flush(now: now) {
                close(connection, .vanished(code))
                return
            }
            clients.account(connection)
            // The socket took enough (over budget: all of it): go on with lines already read,
            // which no event would bring back (their bytes are out of the kernel's buffer and in ours).
            if outputFull, connection.unsent <= allowance { continue }
            guard connection.isQuiet else { break }
            if connection.readClosed {
                close(connection, .finished)
                return
            }
            guard closingQuiet else { break }
            // Draining, grace over: close as soon as nothing the client already sent is left
            // unanswered.
            switch read(connection) {
            case nil: return
            case .wouldBlock?:
                close(connection, .drained)
                return
            default: continue
            }
        }
        let heldBack = clients.holdsBack(connection)
        clients.setPausedForBudget(connection, heldBack)
        var wanted: UInt32 = 0
        if !connection.readClosed, !connection.handler.isWaiting, connection.unsent <= limits.maxOutputBytes, !heldBack {
            wanted |= Epoll.readable
        }
        // Writability only while bytes wait for it: epoll is level-triggered, and an empty
        // socket is always writable, so watching it idle would wake the loop at once, forever.
        if connection.unsent != 0 { wanted |= Epoll.writable }
        if wanted != connection.registeredEvents {
            if modify(connection.fd, generation: connection.generation, events: wanted) {
                connection.registeredEvents = wanted
            } else {
                close(connection, .vanished(errno))
            }
        }
    }

    /// A handler has output of its own (inbox work, on this thread): service it at the end of
    /// this round. Never called while `serviceDeferred` walks the list.
    private func wake(_ fd: Int32, _ generation: UInt32) {
        guard let connection = clients[fd], connection.generation == generation, !connection.deferred else { return }
        connection.deferred = true
        deferred.append(connection)
    }

    private func resume(_ completion: LoopInbox.Completion) {
        guard let connection = clients[completion.fd], let resumption = completion.resumption as? Handler.Resumption,
              connection.handler.resume(resumption, into: &connection.output)
        else { return }
        service(connection)
    }

    /// The total fell under budget: connections held back get their turn, in fd order, until it
    /// is over again (the rest wait for the next chance).
    private func resumePausedForBudget() {
        for case let connection? in clients.byFD where connection.pausedForBudget {
            guard !clients.overBudget else { return }
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
            let socket = Descriptor(adopting: fd)
            if let refusal = clients.refusal(of: peer) {
                reject(socket, peer, refusal)
                continue
            }
            open(socket, peer)
        }
    }

    private func open(_ socket: Descriptor, _ peer: PeerCredentials) {
        let fd = socket.raw
        let generation = generations.next()
        guard register(fd, generation: generation, events: Epoll.readable) else {
            socket.close()
            return
        }
        let inbox = handle.inbox
        let handler = Handler(peer: peer, host: host, resume: { inbox.complete(LoopInbox.Completion(fd: fd, resumption: $0)) },
                              wake: { [weak self] in self?.wake(fd, generation) })
        clients.add(Connection(socket: socket, generation: generation, peer: peer, handler: handler, maxLineBytes: limits.maxLineBytes,
                               registeredEvents: Epoll.readable, now: now))
        handle.openConnections.store(clients.count, ordering: .relaxed)
        handle.liveCounters[.accepted].add()
    }

    /// One busy line saying why, then close. The socket is fresh, so its send buffer takes the
    /// line whole.
    private func reject(_ socket: Descriptor, _ peer: PeerCredentials, _ refusal: ConnectionRefusal) {
        handle.liveCounters[.refusedBusy].add()  // before the close, as in close(_:_:)
        let line = Handler.refusalLine(refusal, host: host)
        _ = line.withUnsafeBytes { send(socket.raw, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        socket.close()
        if let skipped = busyThrottle.admit(now: now) {
            Log.notice("turning clients away: \(refusal.reason) (uid \(peer.uid), \(clients.count) of \(limits.maxConnections) open)",
                       [JournalEvent.serverBusy.field, ("PEER_UID", String(peer.uid)), ("SUPPRESSED", String(skipped))])
        }
    }

    private func pauseAccepting(_ code: Int32) {
        if let skipped = acceptThrottle.admit(now: now) {
            Log.warning("accept failed: \(Errno(code)); pausing new connections briefly",
                        [JournalEvent.acceptError.field, ("SUPPRESSED", String(skipped))])
        }
        guard acceptPausedUntil == nil else { return }
        for listener in listeners { _ = modify(listener.raw, generation: 0, events: 0) }
        acceptPausedUntil = now + Epoll.acceptBackoffNanos
    }

    private func resumeAccepting() {
        acceptPausedUntil = nil
        for listener in listeners { _ = modify(listener.raw, generation: 0, events: Epoll.readable) }
    }

    // MARK: - Inbox, ticks, shutdown

    private func takeInbox() {
        let batch = handle.inbox.take()
        for work in batch.work { work() }
        for completion in batch.completions { resume(completion) }
        if batch.stopRequested, drainDeadline == nil { beginDrain() }
    }

    private func tick() {
        let previousTick = nextTick - tickNanos
        nextTick = now + tickNanos
        handle.onTick?()
        for case let connection? in clients.byFD {
            connection.releaseIdleBuffer(quietSince: previousTick)
            if let reason = clients.timedOut(connection, now: now) { close(connection, reason) }
        }
        if let stalled = clients.letOneThroughIfStalled() { service(stalled) }
    }

    /// Stops accepting: the listeners are closed, which under socket activation closes only
    /// this process's copy, so connections still in the backlog wait there for the next daemon.
    /// Every connection already accepted is served on: during the grace as before the stop (a
    /// client accepted a moment ago may be writing its first request right now), then each
    /// closes once nothing it sent is unanswered, all of them by the drain deadline.
    private func beginDrain() {
        drainDeadline = now + drainNanos
        graceEnd = now + graceNanos
        closeListeners()
        acceptPausedUntil = nil
        // Last: whoever hears of the drain finds its start complete.
        handle.onDrain?(clients.count)
    }

    private func endGrace() {
        graceEnd = nil
        for case let connection? in clients.byFD { service(connection) }
    }

    /// The stop's grace is over: a connection closes as soon as it is quiet.
    private var closingQuiet: Bool { drainDeadline != nil && graceEnd == nil }

    private func closeListeners() {
        for listener in listeners { listener.close() }
        listeners = []
    }

    private func shutDown() {
        closeListeners()
        for case let connection? in clients.byFD { close(connection, .drained) }
        handle.inbox.close()
        epoll.close()
    }

    private func close(_ connection: Connection<Handler>, _ reason: CloseReason) {
        guard clients.remove(connection) else { return }
        connection.handler.end()
        handle.openConnections.store(clients.count, ordering: .relaxed)
        // Counted before the close, so a client that sees its end of stream sees the count too.
        handle.liveCounters[reason.counter].add()
        if let message = reason.clientError { Log.clientError(connection.peer, message) }
        connection.socket.close()
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
        return epoll_ctl(epoll.raw, operation, fd, &event) == 0
    }
}

/// The loop's constants (a generic class has no static stored properties).
private enum Epoll {
    static let readable = EPOLLIN.rawValue
    static let writable = EPOLLOUT.rawValue
    static let hangUp = EPOLLHUP.rawValue | EPOLLERR.rawValue
    /// Pause after EMFILE/ENFILE: long enough not to spin on a full descriptor table, short
    /// enough that service resumes as soon as descriptors free up.
    static let acceptBackoffNanos: Int64 = 100_000_000
}
