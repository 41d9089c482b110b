import StopSheetCore
import StopSheetProtocol

/// How `health`, its caches, `refresh` and `version` are written (`Answer.Health`,
/// `.CacheHealth`, `.SubscriptionTotals`, `.Refreshed`, `.Version`).
extension CacheStatus {
    /// The cache's entry in `health` (and in a `refresh` answer), its age and staleness at `now`,
    /// its times in `zone`.
    func write<Sink>(_ writer: inout JSONWriter<Sink>, at now: Instant, in zone: TimeZoneRules) {
        let freshness = freshness(now: now)
        writer.members(Answer.CacheHealth.CodingKeys.self) { writer, key in
            switch key {
            case .loaded: writer.member(key, bool: loaded)
            case .count: writer.member(key, int: count)
            case .loadedAt: writer.member(key, string: loadedAt.map(zone.iso8601))
            case .lastAttemptAt: writer.member(key, string: lastAttemptAt.map(zone.iso8601))
            case .lastError: writer.member(key, string: lastError)
            case .source: writer.member(key, string: configured ? source : nil)
            case .consecutiveFailures: writer.member(key, int: consecutiveFailures)
            case .nextRefreshAt: writer.member(key, string: nextRefreshAt.map(zone.iso8601))
            case .lastHTTPStatus: writer.member(key, int: lastHTTPStatus)
            case .ageSeconds: writer.member(key, int: freshness.ageSeconds.map { Int($0) })
            case .stale: writer.member(key, bool: freshness.stale)
            case .note: writer.member(key, string: note(at: now, in: zone))
            case .producedAt: writer.member(key, string: freshness.producedAt.map(zone.iso8601))
            case .configured: writer.member(key, bool: configured)
            case .notices: if let notices { writer.object(key) { notices.write(&$0) } }
            }
        }
    }

    /// `refresh`'s answer: the entry of each cache refreshed, in `CacheName` order.
    static func encodedRefreshed(_ statuses: [CacheName: CacheStatus], at now: Instant, in zone: TimeZoneRules) -> [UInt8] {
        .object { writer in
            writer.members(Answer.Refreshed.CodingKeys.self) { writer, key in
                let cache: CacheName = switch key {
                case .alerts: .alerts
                case .stations: .stations
                case .facilities: .facilities
                }
                if let status = statuses[cache] { writer.object(key) { status.write(&$0, at: now, in: zone) } }
            }
        }
    }
}

extension FeedNotices {
    func write<Sink>(_ writer: inout JSONWriter<Sink>) {
        writer.members(Answer.Notices.CodingKeys.self) { writer, key in
            switch key {
            case .count: writer.member(key, int: count)
            case .first:
                writer.array(key, of: first) { writer, notice in
                    writer.members(Answer.Notice.CodingKeys.self) { writer, key in
                        switch key {
                        case .file: writer.member(key, string: notice.file)
                        case .line: writer.member(key, int: notice.line)
                        case .problem: writer.member(key, string: Log.oneLine(notice.problem, maxBytes: 400))
                        }
                    }
                }
            }
        }
    }
}

extension SubscriptionCounters {
    func write<Sink>(_ writer: inout JSONWriter<Sink>) {
        writer.members(Answer.SubscriptionTotals.CodingKeys.self) { writer, key in
            switch key {
            case .count: writer.member(key, int: subscriptions.load(ordering: .relaxed))
            case .stops: writer.member(key, int: stops.load(ordering: .relaxed))
            case .queuedNotifications: writer.member(key, int: notifications.queued.load(ordering: .relaxed))
            case .queuedNotificationBytes: writer.member(key, int: notifications.queuedBytes.load(ordering: .relaxed))
            }
        }
    }
}

extension StopSheetService {
    /// `health`'s answer from `generation` (the current one by default).
    public func health(of generation: Generation? = nil) -> [UInt8] {
        let generation = generation ?? store.current
        let now = clock.now()
        let zone = generation.encoded.zone
        return .object { writer in
            writer.members(Answer.Health.CodingKeys.self) { writer, key in
                switch key {
                case .status: writer.member(key, word: generation.health)
                case .alerts: writer.object(key) { generation.status(.alerts).write(&$0, at: now, in: zone) }
                case .stations: writer.object(key) { generation.status(.stations).write(&$0, at: now, in: zone) }
                case .facilities: writer.object(key) { generation.status(.facilities).write(&$0, at: now, in: zone) }
                case .uptimeSeconds: writer.member(key, int: Int((SystemClock.monotonicMilliseconds() - startedAt) / 1000))
                case .connections: writer.member(key, int: connections())
                case .version: writer.member(key, string: StopSheetVersion.current)
                case .subscriptions:
                    if let subscriptions { writer.object(key) { subscriptions.write(&$0) } } else { writer.null(key) }
                case .agencies: writer.member(key, strings: generation.snapshot.stations?.agencyNames ?? [])
                case .timeZone: writer.member(key, string: zone.name)
                case .clock:
                    writer.object(key) { writer in
                        writer.members(Answer.Clock.CodingKeys.self) { writer, key in
                            switch key {
                            case .now: writer.member(key, string: zone.iso8601(now))
                            case .pinned: writer.member(key, bool: clock.isPinned)
                            }
                        }
                    }
                }
            }
        }
    }

    /// `version`'s answer.
    static let encodedVersion: [UInt8] = .object { writer in
        writer.members(Answer.Version.CodingKeys.self) { writer, key in
            switch key {
            case .name: writer.member(key, string: "stopsheetd")
            case .version: writer.member(key, string: StopSheetVersion.current)
            case .protocol: writer.member(key, string: ProtocolVersion.text)
            }
        }
    }
}
