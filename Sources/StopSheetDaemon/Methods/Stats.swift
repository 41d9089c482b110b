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
        dispatcher.register(.stats) { params, _ in
            do throws(RPCError) { _ = try Params(params, of: .stats) } catch { return .error(error) }
            guard let server = server() else { return .error(.internalError("stats before the server exists")) }
            return .result(stats(server))
        }
    }

    func stats(_ server: Server) -> JSON {
        let requests = server.requestCounters
        func refreshes(_ cache: CacheName) -> JSON {
            let status = store.status(cache)
            return ["source": status.configured ? .string(status.source) : .null, "ok": .int(status.refreshesSucceeded), "failed": .int(status.refreshesFailed)]
        }
        var result = JSONObject([
            ("since", store.zone.json(since)),
            ("requests", .object(JSONObject(requests.requests.map { (key: $0.method, value: .int($0.count)) }))),
            ("errors", .object(JSONObject(requests.errors.map { (key: $0.code.map(String.init) ?? "other", value: .int($0.count)) }))),
            ("connections", ["open": .int(server.connectionCount)]),
            ("refreshes", ["alerts": refreshes(.alerts), "stations": refreshes(.stations)]),
        ])
        server.counters.insert(into: &result)
        return .object(result)
    }
}
