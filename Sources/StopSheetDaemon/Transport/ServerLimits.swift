/// The server's limits, Redis-style: configuration with documented defaults, each one a bound a
/// hostile or broken client runs into instead of the daemon's memory or the other clients. Those
/// that are settings have their flag's name and take their defaults from `Config.defaults`.
public struct ServerLimits: Sendable, Equatable {
    /// Longest request line (content without its newline). Longer: one -32003 error, the line is
    /// skipped, the connection stays open.
    public var maxLineBytes: Int
    /// Open connections. One more gets a single -32004 "server busy" line and is closed.
    public var maxConnections: Int
    /// Open connections of one peer uid other than root and the daemon's own (those two have no
    /// cap of their own), so one local user cannot take every slot.
    public var maxConnectionsPerUID: Int
    /// The last slots under `maxConnections` that only root and the daemon's own uid may take, so
    /// an administrator can always get in. At most half of `maxConnections` (see `reserve`).
    public var reservedConnections: Int
    /// Most requests in one batch. More: one -32600 error for the whole line.
    public var maxBatch: Int
    /// Deepest JSON nesting in a request. Deeper: -32700 (the parser stops before recursing).
    public var maxDepth: Int
    /// Unsent answer bytes a connection may hold. Past it the connection is no longer read from
    /// or answered until the client catches up (back-pressure through the socket buffers). The
    /// answer in progress is finished first, so a connection holds at most this plus one answer.
    public var maxOutputBytes: Int
    /// Unsent answer bytes and unanswered request bytes of all connections together. Past it a
    /// connection holding any is neither read from nor answered (those still reading everything
    /// they are sent go on), until the total falls back under: memory stays near this plus one
    /// answer and one small read per connection, whatever the clients do. When only parts of
    /// lines hold it, one connection at a time is read on until its line is whole or too long
    /// (`Clients.letOneThroughIfStalled`): one line more.
    public var maxBufferedBytes: Int
    /// How long a connection may owe answers without taking any of them before it is closed,
    /// whether or not it is past `maxOutputBytes`.
    public var stuckTimeout: Duration
    /// How long a connection with nothing in flight may go without sending a whole request;
    /// `.zero` means forever. Bytes that complete no request (a drip) do not count.
    public var idleTimeout: Duration
    /// After `stop()`, how long in-flight requests get to finish before connections are cut.
    public var drainTimeout: Duration
    /// After `stop()`, how long a connection with nothing in flight stays open for a request it
    /// may be writing right now (one accepted a moment before the stop has often sent nothing
    /// yet): answered like any other, then closed once quiet. Well under `drainTimeout`, so a
    /// silent client holds a restart this long, not the whole bound (docs/systemd.md, "Stop").
    public var drainGrace: Duration
    /// The longest gap between two `onTick` calls; also the resolution of the timeouts above.
    public var tickInterval: Duration

    /// The settings' limits from `config`; the others (reserved slots, drain, grace, tick) are not
    /// settings and have their defaults here.
    public init(_ config: Config = .defaults) {
        maxLineBytes = config.maxLineBytes
        maxConnections = config.maxConnections
        maxConnectionsPerUID = config.maxConnectionsPerUID
        reservedConnections = 8
        maxBatch = config.maxBatch
        maxDepth = config.maxDepth
        maxOutputBytes = config.maxOutputBytes
        maxBufferedBytes = config.maxBufferedBytes
        stuckTimeout = .milliseconds(Int64(config.stuckTimeout * 1000))
        idleTimeout = .milliseconds(Int64(config.idleTimeout * 1000))
        drainTimeout = .seconds(5)
        drainGrace = .milliseconds(500)
        tickInterval = .seconds(1)
    }

    /// Makes the tick come four times at least in every `interval` (what is fed from the tick
    /// once per `interval`, the watchdog, is then never late by more than a quarter of it), and
    /// never less often than it does already.
    public mutating func tickOften(enoughFor interval: Duration) {
        tickInterval = min(tickInterval, interval / 4)
    }

    /// The tick in nanoseconds: at least a millisecond, the resolution of the loop's wait.
    var tickNanoseconds: Int64 { max(tickInterval.clampedNanoseconds, 1_000_000) }

    /// The stop's grace in nanoseconds: never past the drain's own end.
    var graceNanoseconds: Int64 { min(drainGrace.clampedNanoseconds, drainTimeout.clampedNanoseconds) }

    /// The reserved slots in force: never more than half of all, so a small `maxConnections`
    /// still serves other users.
    var reserve: Int { min(max(0, reservedConnections), maxConnections / 2) }
}
