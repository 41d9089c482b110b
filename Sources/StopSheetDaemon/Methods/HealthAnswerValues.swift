import StopSheetCore
import StopSheetProtocol

/// `health`, its caches, `refresh` and `version` as answers (`Answer.Health`, `.CacheHealth`,
/// `.SubscriptionTotals`, `.Refreshed`, `.Version`).
extension CacheStatus {
    /// The cache's entry in `health` (and in a `refresh` answer), its age and staleness at `now`,
    /// its times in `zone`.
    func answer(at now: Instant, in zone: TimeZoneRules, placement: Answer.PlacementCounts? = nil, joined: Answer.JoinedCounts? = nil,
                moreNotices: FeedNotices? = nil) -> Answer.CacheHealth {
        let freshness = freshness(now: now)
        // The station table's rows that name no station are known against the stations in force alone.
        var notices = notices
        if let moreNotices, moreNotices.count > 0 {
            var all = notices ?? FeedNotices()
            all.append(moreNotices)
            notices = all
        }
        return Answer.CacheHealth(loaded: loaded, count: count, loadedAt: loadedAt.map(zone.iso8601), lastAttemptAt: lastAttemptAt.map(zone.iso8601),
                                  lastError: lastError, source: configured ? source : nil, consecutiveFailures: consecutiveFailures,
                                  nextRefreshAt: nextRefreshAt.map(zone.iso8601), lastHTTPStatus: lastHTTPStatus,
                                  ageSeconds: freshness.ageSeconds.map { Int($0) }, stale: freshness.stale, note: note(at: now, in: zone),
                                  producedAt: freshness.producedAt.map(zone.iso8601), configured: configured, notices: notices?.answer,
                                  placement: placement, joined: joined)
    }

    /// `refresh`'s answer: the entry of each cache refreshed.
    static func encodedRefreshed(_ statuses: [CacheName: CacheStatus], at now: Instant, in zone: TimeZoneRules) -> PreEncoded<Answer.Refreshed> {
        PreEncoded(Answer.Refreshed(alerts: statuses[.alerts]?.answer(at: now, in: zone), stations: statuses[.stations]?.answer(at: now, in: zone),
                                               facilities: statuses[.facilities]?.answer(at: now, in: zone)))
    }
}

extension [FacilityPlacement.Count: Int] {
    var answer: Answer.PlacementCounts {
        Answer.PlacementCounts(placed: self[.placed] ?? 0, offTheMap: self[.offTheMap] ?? 0, ambiguous: self[.ambiguous] ?? 0, unplaced: self[.unplaced] ?? 0)
    }
}

extension Answer.JoinedCounts {
    init(_ counts: (joinedBy: [FacilityJoin.Rule: Int], nowhere: Int)) {
        let by = counts.joinedBy
        self.init(inventory: by[.inventory] ?? 0, feed: by[.feed] ?? 0, stationCode: by[.stationCode] ?? 0, table: by[.table] ?? 0,
                  position: by[.position] ?? 0, pathway: by[.pathway] ?? 0, noStation: counts.nowhere)
    }
}

extension FeedNotices {
    var answer: Answer.Notices {
        Answer.Notices(count: count, first: first.map { Answer.Notice(file: $0.file, line: $0.line, problem: Log.oneLine($0.problem, maxBytes: 400)) })
    }
}

extension SubscriptionCounters {
    var answer: Answer.SubscriptionTotals {
        Answer.SubscriptionTotals(count: subscriptions.load(ordering: .relaxed), stops: stops.load(ordering: .relaxed),
                                  queuedNotifications: notifications.queued.load(ordering: .relaxed),
                                  queuedNotificationBytes: notifications.queuedBytes.load(ordering: .relaxed))
    }
}

extension StopSheetService {
    /// `health`'s answer from `generation` (the current one by default), encoded.
    public func health(of generation: Generation? = nil) -> [UInt8] { encodedHealth(of: generation).bytes }

    /// `health`'s answer, encoded once for every subscription that is sent it.
    func encodedHealth(of generation: Generation? = nil) -> PreEncoded<Answer.Health> {
        let generation = generation ?? store.current
        let now = clock.now()
        let zone = generation.encoded.zone
        return PreEncoded(Answer.Health(
            status: generation.health, alerts: generation.status(.alerts).answer(at: now, in: zone), stations: generation.status(.stations).answer(at: now, in: zone),
            facilities: generation.status(.facilities).answer(at: now, in: zone, placement: generation.snapshot.facilityCounts.map(\.answer),
                                                              joined: generation.snapshot.facilityJoinCounts.map(Answer.JoinedCounts.init),
                                                              moreNotices: generation.snapshot.stationTableNotices()),
            uptimeSeconds: Int((SystemClock.monotonicMilliseconds() - startedAt) / 1000), connections: connections(), version: StopSheetVersion.current,
            subscriptions: subscriptions?.answer, agencies: generation.snapshot.stations?.agencyNames ?? [], timeZone: zone.name,
            clock: Answer.Clock(now: zone.iso8601(now), pinned: clock.isPinned)))
    }

    /// `version`'s answer.
    static let encodedVersion = PreEncoded(Answer.Version(name: "stopsheetd", version: StopSheetVersion.current, protocol: ProtocolVersion.text))
}
