import Synchronization

public enum ServerError: Error, Equatable, CustomStringConvertible {
    /// `run()` was called a second time; a server runs once.
    case alreadyStarted
    case listener(ListenerError)
    case system(call: String, errno: Int32)

    public var description: String {
        switch self {
        case .alreadyStarted: return "the server was already started"
        case .listener(let error): return error.description
        case .system(let call, let code): return "\(call) failed with errno \(code)"
        }
    }
}

/// The JSON-RPC server: one event-loop thread serving every connection (see `EventLoop`).
///
/// Wiring: build a `Dispatcher`, make the server with listening fds (from `bindUnixListener` or
/// socket activation; the server owns them from then on and closes them on stop), call `run()` on
/// a thread of its own, and `stop()` from anywhere, e.g. a SIGTERM handler's thread.
public final class Server: Sendable {
    let dispatcher: Dispatcher
    let limits: ServerLimits
    private let listeners: [Int32]
    let inbox = LoopInbox()
    let liveCounters = ServerCounterTable()
    /// Requests per registered method and error answers per code (`stats`).
    let requestCounters: RequestCounters
    let openConnections = Atomic<Int>(0)
    private let started = Atomic<Bool>(false)
    private let tick = Locked<(@Sendable () -> Void)?>(nil)
    private let drain = Locked<(@Sendable (Int) -> Void)?>(nil)

    public init(listeners: [Int32], dispatcher: Dispatcher, limits: ServerLimits = ServerLimits()) {
        self.listeners = listeners
        self.dispatcher = dispatcher
        self.limits = limits
        requestCounters = RequestCounters(dispatcher)
    }

    /// Serves on the calling thread until `stop()` has drained the connections (or
    /// `limits.drainTimeout` passed). Throws when the loop cannot start (the listeners are then
    /// still open and the caller's) or when epoll itself fails (everything is closed).
    public func run() throws(ServerError) {
        try run(Session.self, host: SessionHost(dispatcher: dispatcher, limits: limits, counters: liveCounters, requests: requestCounters))
    }

    /// Serves each connection with a `Handler` (`Session`, unless a test of the loop brings its
    /// own); `host` is made on the loop thread, which then owns it.
    func run<Handler: ConnectionHandler>(_: Handler.Type, host: @autoclosure () -> Handler.Host) throws(ServerError) {
        guard started.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else {
            throw .alreadyStarted
        }
        let loop = try EventLoop<Handler>(server: self, listeners: listeners, host: host())
        try loop.run()
    }

    /// Runs `work` on the loop thread, soon. Work posted after `run()` returned never runs.
    public func post(_ work: @escaping @Sendable () -> Void) {
        inbox.post(work)
    }

    /// Stops accepting (listeners are closed at once), serves the connections already accepted:
    /// what they send within `limits.drainGrace` and every request they sent before it are
    /// answered, within `limits.drainTimeout`. Then makes `run()` return. Safe from any thread,
    /// any number of times, also before `run()`.
    public func stop() {
        inbox.requestStop()
    }

    public var connectionCount: Int { openConnections.load(ordering: .relaxed) }

    public var counters: ServerCounts { liveCounters.snapshot }

    /// Called on the loop thread at least every `limits.tickInterval`, also when idle; a wedged
    /// loop stops calling it, which is what makes it the place for the systemd watchdog ping.
    public var onTick: (@Sendable () -> Void)? {
        get { tick.withLock { $0 } }
        set { tick.withLock { $0 = newValue } }
    }

    var tickHandler: (@Sendable () -> Void)? { tick.withLock { $0 } }

    /// Called on the loop thread when it takes the stop (listeners closed, the grace begun), with
    /// the number of connections it goes on serving: from here on nothing new is accepted.
    public var onDrain: (@Sendable (_ openConnections: Int) -> Void)? {
        get { drain.withLock { $0 } }
        set { drain.withLock { $0 = newValue } }
    }

    var drainHandler: (@Sendable (Int) -> Void)? { drain.withLock { $0 } }
}
