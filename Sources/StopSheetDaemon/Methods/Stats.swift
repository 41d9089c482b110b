import StopSheetCore
import StopSheetProtocol

/// `stats`: what the daemon has counted since it started (protocol.md). The counters themselves
/// are the server's (`ServerCounter`, `RequestCounters`) and the caches' (`CacheStatus`); this
/// only reads them, placing the server's where `ServerCounter.statsPath` says. Its handler runs
/// on the serving loop, the counters' one writer, so the numbers of one answer agree.
public struct StatsMethod: Sendable {
    let since: Instant
    let store: Store
    /// The server is made after its dispatcher, so it is reached through this once both exist.
    let server: @Sendable () -> Server?

    public init(since: Instant, store: Store, server: @escaping @Sendable () -> Server?) {
        self.since = since
        self.store = store
        self.server = server
    }

    public func register(in dispatcher: inout Dispatcher) {
        dispatcher.register(Methods.Stats.self) { _, _ in
            guard let server = server() else { return .error(.internalError("stats before the server exists")) }
            return .result(stats(server))
        }
    }

    func stats(_ server: Server) -> PreEncoded<Answer.Stats> {
        let requests = server.requestCounters
        let counts = server.counters
        func refreshes(_ cache: CacheName) -> Answer.CacheRefreshes {
            let status = store.status(cache)
            return Answer.CacheRefreshes(source: status.configured ? status.source : nil, ok: status.refreshesSucceeded, failed: status.refreshesFailed)
        }
        return PreEncoded(StatsMembers(
            since: Nullable(store.zone.iso8601(since)),
            requests: PreEncoded(orderedMembers: requests.requests.map { (name: $0.method, value: $0.count) }),
            errors: PreEncoded(orderedMembers: requests.errors.map { (name: $0.code.map(String.init) ?? Answer.Stats.otherError, value: $0.count) }),
            connections: Answer.ConnectionCounts(
                open: server.connectionCount, accepted: counts[.accepted], refused: Answer.RefusedCounts(busy: counts[.refusedBusy]),
                closed: Answer.ClosedCounts(finished: counts[.closedFinished], idle: counts[.closedIdle], stuck: counts[.closedStuck], vanished: counts[.closedVanished])),
            refreshes: Answer.RefreshCounts(alerts: refreshes(.alerts), stations: refreshes(.stations), facilities: refreshes(.facilities)),
            bytes: Answer.ByteCounts(in: counts[.bytesIn], out: counts[.bytesOut]),
            notificationsSent: counts[.notificationsSent]))
    }
}
