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

    func stats(_ server: Server) -> [UInt8] {
        let requests = server.requestCounters
        let counts = server.counters
        return .object { writer in
            writer.members(Answer.Stats.CodingKeys.self) { writer, key in
                switch key {
                case .since: writer.member(key, string: store.zone.iso8601(since))
                case .requests:
                    writer.object(key) { object in
                        for entry in requests.requests { object.member(JSONKey(entry.method), int: entry.count) }
                    }
                case .errors:
                    writer.object(key) { object in
                        for entry in requests.errors { object.member(JSONKey(entry.code.map(String.init) ?? Answer.Stats.otherError), int: entry.count) }
                    }
                case .connections: writer.object(key) { Self.writeConnections(&$0, counts, open: server.connectionCount) }
                case .refreshes:
                    writer.object(key) { writer in
                        writer.members(Answer.RefreshCounts.CodingKeys.self) { writer, key in
                            let status = store.status(CacheName(rawValue: key.rawValue)!)
                            writer.object(key) { writer in
                                writer.members(Answer.CacheRefreshes.CodingKeys.self) { writer, key in
                                    switch key {
                                    case .source: writer.member(key, string: status.configured ? status.source : nil)
                                    case .ok: writer.member(key, int: status.refreshesSucceeded)
                                    case .failed: writer.member(key, int: status.refreshesFailed)
                                    }
                                }
                            }
                        }
                    }
                case .bytes:
                    writer.object(key) { writer in
                        writer.members(Answer.ByteCounts.CodingKeys.self) { writer, key in
                            writer.member(key, int: counts[key == .in ? .bytesIn : .bytesOut])
                        }
                    }
                case .notificationsSent: writer.member(key, int: counts[.notificationsSent])
                }
            }
        }
    }

    private static func writeConnections<Sink>(_ writer: inout JSONWriter<Sink>, _ counts: ServerCounts, open: Int) {
        writer.members(Answer.ConnectionCounts.CodingKeys.self) { writer, key in
            switch key {
            case .open: writer.member(key, int: open)
            case .accepted: writer.member(key, int: counts[.accepted])
            case .refused:
                writer.object(key) { writer in
                    writer.members(Answer.RefusedCounts.CodingKeys.self) { writer, key in
                        switch key {
                        case .busy: writer.member(key, int: counts[.refusedBusy])
                        }
                    }
                }
            case .closed:
                writer.object(key) { writer in
                    writer.members(Answer.ClosedCounts.CodingKeys.self) { writer, key in
                        let counter: ServerCounter = switch key {
                        case .finished: .closedFinished
                        case .idle: .closedIdle
                        case .stuck: .closedStuck
                        case .vanished: .closedVanished
                        }
                        writer.member(key, int: counts[counter])
                    }
                }
            }
        }
    }
}
