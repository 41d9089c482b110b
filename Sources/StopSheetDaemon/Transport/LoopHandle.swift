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

/// What the serving loop shares with the threads outside it: the listeners it is given, its
/// limits, the inbox that brings work and the stop in, the counters and hooks it reports through.
/// It knows connections and lines, not what the lines mean: the JSON-RPC `Server` holds one and
/// runs the loop with its `Session`s, a test of the loop with a handler of its own.
final class LoopHandle: Sendable {
    let limits: ServerLimits
    private let listeners: [Int32]
    let inbox = LoopInbox()
    let liveCounters = ServerCounterTable()
    let openConnections = Atomic<Int>(0)
    private let started = Atomic<Bool>(false)
    private let tick = Locked<(@Sendable () -> Void)?>(nil)
    private let drain = Locked<(@Sendable (Int) -> Void)?>(nil)

    init(listeners: [Int32], limits: ServerLimits) {
        self.listeners = listeners
        self.limits = limits
    }

    /// Serves each connection with a `Handler`; `host` is made on the loop thread, which then
    /// owns it. Runs once.
    func run<Handler: ConnectionHandler>(_: Handler.Type, host: @autoclosure () -> Handler.Host) throws(ServerError) {
        guard started.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else {
            throw .alreadyStarted
        }
        let loop = try EventLoop<Handler>(handle: self, listeners: listeners, host: host())
        try loop.run()
    }

    var onTick: (@Sendable () -> Void)? {
        get { tick.withLock { $0 } }
        set { tick.withLock { $0 = newValue } }
    }

    var onDrain: (@Sendable (_ openConnections: Int) -> Void)? {
        get { drain.withLock { $0 } }
        set { drain.withLock { $0 = newValue } }
    }
}
