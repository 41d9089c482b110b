/// The server's limits, Redis-style: configuration with documented defaults, each one a bound a
/// hostile or broken client runs into instead of the daemon's memory or the other clients.
public struct ServerLimits: Sendable, Equatable {
    /// Longest request line (content without its newline). Longer: one -32003 error, the line is
    /// skipped, the connection stays open.
    public var maxLineBytes: Int
    /// Open connections. One more gets a single -32004 "server busy" line and is closed.
    public var maxConnections: Int
    /// Most requests in one batch. More: one -32600 error for the whole line.
    public var maxBatch: Int
    /// Deepest JSON nesting in a request. Deeper: -32700 (the parser stops before recursing).
    public var maxDepth: Int
    /// Unsent answer bytes a connection may hold. Past it the connection is no longer read from
    /// until the client catches up (back-pressure through the socket buffers).
    public var maxPendingOutputBytes: Int
    /// How long a connection may stay past `maxPendingOutputBytes` before it is closed.
    public var stuckTimeout: Duration
    /// How long a connection with nothing in flight may stay silent; `.zero` means forever.
    public var idleTimeout: Duration
    /// After `stop()`, how long in-flight requests get to finish before connections are cut.
    public var drainTimeout: Duration
    /// The longest gap between two `onTick` calls; also the resolution of the timeouts above.
    public var tickInterval: Duration

    public init(
        maxLineBytes: Int = 1 << 20,
        maxConnections: Int = 1024,
        maxBatch: Int = 64,
        maxDepth: Int = 64,
        maxPendingOutputBytes: Int = 8 << 20,
        stuckTimeout: Duration = .seconds(30),
        idleTimeout: Duration = .zero,
        drainTimeout: Duration = .seconds(5),
        tickInterval: Duration = .seconds(1)
    ) {
        self.maxLineBytes = maxLineBytes
        self.maxConnections = maxConnections
        self.maxBatch = maxBatch
        self.maxDepth = maxDepth
        self.maxPendingOutputBytes = maxPendingOutputBytes
        self.stuckTimeout = stuckTimeout
        self.idleTimeout = idleTimeout
        self.drainTimeout = drainTimeout
        self.tickInterval = tickInterval
    }
}
