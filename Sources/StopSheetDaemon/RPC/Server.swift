/// The JSON-RPC server: one event-loop thread serving every connection (see `EventLoop`) with a
/// `Session` each, which answers by its `Dispatcher`.
///
/// Wiring: build a `Dispatcher`, make the server with listening fds (from `bindUnixListener` or
/// socket activation; the server owns them from then on and closes them on stop), call `run()` on
/// a thread of its own, and `stop()` from anywhere, e.g. a SIGTERM handler's thread.
public final class Server: Sendable {
    let dispatcher: Dispatcher
    /// The loop's side: its listeners, limits, inbox, counters and hooks (Transport).
    let loop: LoopHandle
    /// Requests per registered method and error answers per code (`stats`).
    let requestCounters: RequestCounters

    public init(listeners: [Int32], dispatcher: Dispatcher, limits: ServerLimits = ServerLimits()) {
        loop = LoopHandle(listeners: listeners, limits: limits)
        self.dispatcher = dispatcher
        requestCounters = RequestCounters(dispatcher)
    }

    var limits: ServerLimits { loop.limits }

    /// Serves on the calling thread until `stop()` has drained the connections (or
    /// `limits.drainTimeout` passed). Throws when the loop cannot start (the listeners are then
    /// still open and the caller's) or when epoll itself fails (everything is closed).
    public func run() throws(ServerError) {
        try run(Session.self, host: SessionHost(dispatcher: dispatcher, limits: limits, counters: loop.liveCounters, requests: requestCounters))
    }

    /// Serves each connection with a `Handler` (`Session`, unless a test of the loop brings its
    /// own); `host` is made on the loop thread, which then owns it.
    func run<Handler: ConnectionHandler>(_: Handler.Type, host: @autoclosure () -> Handler.Host) throws(ServerError) {
        try loop.run(Handler.self, host: host())
    }

    /// Runs `work` on the loop thread, soon. Work posted after `run()` returned never runs.
    public func post(_ work: @escaping @Sendable () -> Void) {
        loop.inbox.post(work)
    }

    /// Stops accepting (listeners are closed at once), serves the connections already accepted:
    /// what they send within `limits.drainGrace` and every request they sent before it are
    /// answered, within `limits.drainTimeout`. Then makes `run()` return. Safe from any thread,
    /// any number of times, also before `run()`.
    public func stop() {
        loop.inbox.requestStop()
    }

    public var connectionCount: Int { loop.openConnections.load(ordering: .relaxed) }

    public var counters: ServerCounts { loop.liveCounters.snapshot }

    /// Called on the loop thread at least every `limits.tickInterval`, also when idle; a wedged
    /// loop stops calling it, which is what makes it the place for the systemd watchdog ping.
    public var onTick: (@Sendable () -> Void)? {
        get { loop.onTick }
        set { loop.onTick = newValue }
    }

    /// Called on the loop thread when it takes the stop (listeners closed, the grace begun), with
    /// the number of connections it goes on serving: from here on nothing new is accepted.
    public var onDrain: (@Sendable (_ openConnections: Int) -> Void)? {
        get { loop.onDrain }
        set { loop.onDrain = newValue }
    }
}
