import StopSheetCore
import Synchronization

/// The current `Generation`: the snapshot and the caches' status. Readers take it under a brief
/// lock (one reference); a change builds a whole new generation outside that lock and swaps it
/// in, so a refresh never blocks an answer and an answer never sees half a refresh. The lock is
/// uncontended in practice: the serving loop is its only frequent taker, the refreshers take it
/// once per refresh.
public final class Store: Sendable {
    private let state: Locked<Generation>
    /// Serialises changes, so two refreshers finishing together cannot lose each other's data
    /// and the hook sees the generations in the order they were published. It guards a count of
    /// changes rather than nothing: TSan mistakes accesses to a zero-size guarded value for
    /// accesses to the lock itself.
    private let building = Locked(0)
    /// Told once per change, with the generation it replaced and the new one (`onChange`).
    private let changeHook = Locked<(@Sendable (_ old: Generation, _ new: Generation) -> Void)?>(nil)
    /// How many generations were published: read without the lock (`version`).
    private let published = Atomic<UInt64>(0)

    /// The daemon's wall clock: what status changes are stamped with, read by the refreshers too.
    public let clock: DaemonClock

    /// A nil source: that cache is not configured (the daemon was given only the other, and lift
    /// status is optional). The first, empty snapshot is built as of `clock`'s now.
    public init(alertsSource: String?, stationsSource: String?, facilitiesSource: String? = nil, clock: DaemonClock, zones: TimeZones) {
        self.clock = clock
        let now = clock.now()
        // No data yet, so no zone but `--time-zone`.
        var stations = stationsSource.map(CacheStatus.init) ?? .notConfigured
        stations.notices = FeedNotices()
        var facilities = facilitiesSource.map(CacheStatus.init) ?? .notConfigured
        facilities.notices = FeedNotices()
        state = Locked(Generation(EncodedSnapshot(.build(stations: nil, alerts: nil, now: now), zone: zones.shown(data: nil, current: nil)),
                                  alerts: alertsSource.map(CacheStatus.init) ?? .notConfigured,
                                  stations: stations, facilities: facilities, zones: zones))
    }

    /// The generation for one answer: one reference taken under the lock.
    public var current: Generation { state.withLock { $0 } }

    /// A number that changes with every published generation, read without the lock: whoever
    /// keeps something made from `current` can tell, for the cost of one load, that it still
    /// is. Read before `current`, it is never newer than what `current` then gives.
    public var version: UInt64 { published.load(ordering: .acquiring) }

    public var snapshot: Snapshot { current.snapshot }

    /// The zone the current answers show their times in.
    public var zone: TimeZoneRules { current.encoded.zone }

    /// The zones in force; CTA's wall-clock timestamps are read with their `chicago`.
    public var zones: TimeZones { current.zones }

    /// A reload's changes as one generation, so no reader sees it half applied: each cache's
    /// source and stale-after limit, and the zones (the snapshot encoded again when they choose
    /// another zone).
    public func reconfigure(sources: [CacheName: String], staleAfterSeconds: [CacheName: Int64], radiusMeters: Int? = nil, zones: TimeZones) {
        publish { old in
            var statuses = Statuses(old)
            for cache in CacheName.allCases {
                statuses.change(cache) { status in
                    if let source = sources[cache] { status.source = source }
                    if let limit = staleAfterSeconds[cache] { status.staleAfterSeconds = limit }
                    if let radiusMeters { status.radiusMeters = radiusMeters }
                }
            }
            // A new radius joins the units again.
            let facilitiesLimitChanged = statuses.facilities.staleAfterSeconds != old.facilities.staleAfterSeconds
                || statuses.facilities.radiusMeters != old.facilities.radiusMeters
            guard statuses != Statuses(old) || zones != old.zones else { return nil }
            // A new stale-after for lift status can turn units unknown (or back): the snapshot follows it.
            let snapshot = facilitiesLimitChanged
                ? old.snapshot.rebuilt(facilities: .some(Self.facilityData(old.snapshot.facilities, statuses.facilities)), now: clock.now())
                : zones == old.zones ? nil : old.snapshot
            return Self.generation(snapshot, old, statuses, zones: zones)
        }
    }

    public func status(_ cache: CacheName) -> CacheStatus { current.status(cache) }

    /// One change of one cache, published as one generation: its status changed by `change`,
    /// and, with `content`, its data replaced (the snapshot rebuilt as of `now`, and the status's
    /// count and note following it).
    public func commit(_ cache: CacheName, installing content: CacheContent? = nil, at now: Instant,
                       _ change: (inout CacheStatus) -> Void = { _ in }) {
        publish { old in
            var statuses = Statuses(old)
            statuses.change(cache, change)
            let facilities = old.snapshot.facilities
            var snapshot: Snapshot?
            var load: FacilitiesLoad?
            switch content {
            case .alerts(let feed)?:
                snapshot = .build(stations: old.snapshot.stations, alerts: feed.alerts, facilities: facilities, now: now)
                (statuses.alerts.producedAt, statuses.alerts.timeZone) = (feed.producedAt, feed.timeZone)
            case .stations(let directory)?: snapshot = .build(stations: directory, alerts: old.snapshot.alerts, facilities: facilities, now: now)
            case .facilities(var new)?:
                if !new.feed.format.saysSince {
                    new.feed.units = FacilityData.sinceFirstSeen(new.feed.units, previous: facilities?.units ?? [], seenAt: now)
                }
                load = new
                statuses.facilities.producedAt = new.feed.producedAt
                statuses.facilities.notices = new.notices
                let data = FacilityData(units: new.feed.units, inventory: new.inventory, stationTable: new.stationTable,
                                        radiusMeters: statuses.facilities.radiusMeters, lastGoodLoad: statuses.facilities.loadedAt ?? now,
                                        producedAt: new.feed.producedAt, staleAfterSeconds: statuses.facilities.staleAfterSeconds)
                snapshot = old.snapshot.rebuilt(facilities: .some(data), now: now)
            case nil:
                // A 304 makes stale lift status fresh again: the same units, their statuses as
                // reported. While fresh, the boundary rebuild reads the new load time (`rebuildIfBoundaryPassed`).
                if cache == .facilities, let facilities, facilities.isStale(at: old.snapshot.builtAt),
                   let data = Self.facilityData(facilities, statuses.facilities), !data.isStale(at: now) {
                    snapshot = old.snapshot.rebuilt(facilities: .some(data), now: now)
                }
            }
            return Self.generation(snapshot, old, statuses, facilitiesLoad: load)
        }
    }

    public func install(alerts: [Alert], at now: Instant) { install(alerts: DecodedAlerts(alerts: alerts), at: now) }

    public func install(alerts feed: DecodedAlerts, at now: Instant) { commit(.alerts, installing: .alerts(feed), at: now) }

    public func install(stations: StationDirectory, at now: Instant) { commit(.stations, installing: .stations(stations), at: now) }

    /// Lift status loaded at `now` (tests; a refresher commits with its status change).
    public func install(facilities load: FacilitiesLoad, at now: Instant) {
        commit(.facilities, installing: .facilities(load), at: now) { status in
            (status.loaded, status.loadedAt) = (true, now)
        }
    }

    public func updateStatus(_ cache: CacheName, _ change: (inout CacheStatus) -> Void) {
        commit(cache, at: clock.now(), change)
    }

    /// Rebuilds the snapshot when an alert's start or end has passed, so kinds follow the clock
    /// without waiting for a refresh. Returns whether it rebuilt.
    @discardableResult
    public func rebuildIfBoundaryPassed(now: Instant) -> Bool {
        var rebuilt = false
        publish { old in
            guard let boundary = old.snapshot.nextBoundary, boundary <= now else { return nil }
            rebuilt = true
            // The lift-status load time as the status has it now: a 304 since the last build moved it.
            return Self.generation(old.snapshot.rebuilt(facilities: .some(Self.facilityData(old.snapshot.facilities, old.facilities)), now: now), old)
        }
        return rebuilt
    }

    /// `hook` runs once per change, with the generation replaced and the new one, on the thread
    /// that made the change (a refresher's, the reload's, or the loop's at a clock boundary),
    /// outside the generation's lock. It must return at once: subscriptions hand it to the loop.
    public func onChange(_ hook: @escaping @Sendable (_ old: Generation, _ new: Generation) -> Void) {
        changeHook.withLock { $0 = hook }
    }

    /// Builds the next generation from the current one (nil: no change) outside the readers'
    /// lock, swaps it in, and tells the hook.
    private func publish(_ make: (Generation) -> Generation?) {
        building.withLock { changes in
            let old = current
            guard let new = make(old) else { return }
            state.withLock { $0 = new }
            published.add(1, ordering: .releasing)
            changes += 1
            changeHook.withLock { $0 }?(old, new)
        }
    }

    /// The three caches' statuses, changed together into one generation.
    private struct Statuses: Equatable {
        var alerts, stations, facilities: CacheStatus

        init(_ generation: Generation) {
            (alerts, stations, facilities) = (generation.alerts, generation.stations, generation.facilities)
        }

        mutating func change(_ cache: CacheName, _ change: (inout CacheStatus) -> Void) {
            switch cache {
            case .alerts: change(&alerts)
            case .stations: change(&stations)
            case .facilities: change(&facilities)
            }
        }
    }

    /// The snapshot's lift-status data with the freshness `status` has now (load time, stale-after).
    private static func facilityData(_ data: FacilityData?, _ status: CacheStatus) -> FacilityData? {
        guard var data else { return nil }
        if let loadedAt = status.loadedAt { data.lastGoodLoad = loadedAt }
        data.staleAfterSeconds = status.staleAfterSeconds
        data.radiusMeters = status.radiusMeters
        return data
    }

    /// The generation after `old`: `snapshot` encoded in the zone `zones` choose (nil: `old`'s
    /// encoding kept), the statuses' counts and note following the snapshot.
    private static func generation(_ snapshot: Snapshot?, _ old: Generation, _ statuses: Statuses? = nil,
                                   zones: TimeZones? = nil, facilitiesLoad: FacilitiesLoad? = nil) -> Generation {
        let zones = zones ?? old.zones
        let statuses = statuses ?? Statuses(old)
        var alerts = statuses.alerts, stations = statuses.stations, facilities = statuses.facilities
        var facilitiesLoad = facilitiesLoad ?? old.facilitiesFetched
        // A feed's agencies share one zone (GTFS requires it), so the first that names one
        // speaks; CTA's formats name Chicago's. Without one, the alert feed's zone (CTA's formats).
        let encoded = snapshot.map { next in
            let dataZone = next.stations?.agencies.lazy.compactMap(\.timeZone).first ?? (next.alerts == nil ? nil : alerts.timeZone)
            let zone = zones.shown(data: dataZone, current: old.encoded.zone)
            var next = next
            // Lift status read before the zone was known (the stations load after it, or a reload
            // names another) is read again in it: its wall-clock times are the agency's. A feed
            // that gives no times (TfL's) has none to read again, and its `since` is the daemon's.
            if let load = facilitiesLoad, load.feed.format.saysSince, load.local != zone, !load.body.isEmpty, var data = next.facilities,
               let feed = try? FacilitiesBody.decode(load.body, local: zone) {
                data.units = feed.units
                next = next.rebuilt(facilities: .some(data), now: next.builtAt)
                facilitiesLoad?.local = zone
                facilitiesLoad?.feed = feed
            }
            return EncodedSnapshot(next, zone: zone, previous: old.encoded)
        } ?? old.encoded
        if encoded.zone != old.encoded.zone { TimeZones.logShown(encoded.zone) }
        let snapshot = encoded.snapshot
        alerts.count = snapshot.liveAlerts.count
        stations.count = snapshot.stations?.count ?? 0
        stations.note = snapshot.stations.flatMap { $0.linesKnown ? nil : CacheStatus.linesUnknownNote(missing: $0.tablesMissing) }
        stations.notices = snapshot.stations?.notices ?? FeedNotices()
        facilities.count = snapshot.facilities?.units.count ?? 0
        return Generation(encoded, alerts: alerts, stations: stations, facilities: facilities, zones: zones, facilitiesFetched: facilitiesLoad)
    }
}
