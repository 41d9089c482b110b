import StopSheetCore

/// The current snapshot and the caches' status. Readers take the snapshot under a brief lock;
/// writers build a whole new snapshot outside it and swap it in, so a refresh never blocks an
/// answer and an answer never sees half a refresh.
///
/// The snapshot is held with its wire encoding (`EncodedSnapshot`, built once per swap) in a
/// shared box, so that a reader copies one reference under the lock, not the snapshot's dozen. The lock is uncontended in practice: the serving loop is its only
/// frequent taker, the refreshers take it once per refresh.
public final class Store: Sendable {
    private struct State {
        var current: EncodedSnapshot
        var alerts: CacheStatus
        var stations: CacheStatus
        var spliced = SplicedSheets()
        var zones: TimeZones
    }

    private let state: Locked<State>
    /// Serialises builds, so two refreshers finishing together cannot lose each other's data.
    /// It guards a count of builds rather than nothing: TSan mistakes accesses to a zero-size
    /// guarded value for accesses to the lock itself.
    private let building = Locked(0)
    /// Told after every swap and status change, on the thread that made it (`onChange`).
    private let changeHook = Locked<(@Sendable () -> Void)?>(nil)

    public init(alertsSource: String, stationsSource: String, now: Instant, zones: TimeZones) {
        let empty = Snapshot.build(stations: nil, alerts: nil, now: now)
        // No station feed yet, so no agency_timezone.
        state = Locked(State(current: EncodedSnapshot(empty, zone: zones.shown(feed: nil, current: nil)),
                            alerts: CacheStatus(source: alertsSource), stations: CacheStatus(source: stationsSource), zones: zones))
    }

    public var snapshot: Snapshot { current.snapshot }

    /// The zone the current answers show their times in.
    public var zone: TimeZoneRules { current.zone }

    /// The zones in force; CTA's wall-clock timestamps are read with their `chicago`.
    public var zones: TimeZones { state.withLock { $0.zones } }

    /// New zones (a reload): the current snapshot is encoded again in the zone they choose.
    public func use(_ zones: TimeZones) {
        building.withLock { builds in
            guard state.withLock({ state in defer { state.zones = zones }; return state.zones != zones }) else { return }
            swap(snapshot)
            builds += 1
        }
    }

    /// The snapshot for one answer: one reference taken under the lock.
    public var current: EncodedSnapshot { state.withLock { $0.current } }

    /// A station or platform id's `stopSheet` answer at `now`: the snapshot's sheet with the
    /// caches' freshness as its `data`. One lock for the snapshot, the statuses and the splice,
    /// so they agree (a sheet whose `data` says loaded has that data) and an answer still takes
    /// one lock.
    public func stopSheet(stopID: String, now: Instant) -> StopSheetLookup {
        state.withLock { state in
            let data = SheetData(alerts: state.alerts, stations: state.stations, now: now)
            guard let index = state.current.stationIndex(stopID: stopID) else {
                return .noStation(state.current, data: state.spliced.encodedData(data, of: state.current))
            }
            return .sheet(state.spliced.sheet(at: index, of: state.current, data: data))
        }
    }

    public func status(_ cache: CacheName) -> CacheStatus {
        state.withLock { cache == .alerts ? $0.alerts : $0.stations }
    }

    /// A good alert load replaces the alert set.
    public func install(alerts: [Alert], at now: Instant) {
        rebuild(at: now) { Snapshot.build(stations: $0.stations, alerts: alerts, now: now) }
    }

    /// A good station load replaces the whole station set: stations gone upstream are gone.
    public func install(stations: StationDirectory, at now: Instant) {
        rebuild(at: now) { Snapshot.build(stations: stations, alerts: $0.alerts, now: now) }
    }

    /// Rebuilds the snapshot when an alert's start or end has passed, so kinds follow the clock
    /// without waiting for a refresh. Returns whether it rebuilt.
    @discardableResult
    public func rebuildIfBoundaryPassed(now: Instant) -> Bool {
        building.withLock { builds in
            let current = snapshot
            guard let boundary = current.nextBoundary, boundary <= now else { return false }
            swap(Snapshot.build(stations: current.stations, alerts: current.alerts, now: now))
            builds += 1
            return true
        }
    }

    public func updateStatus(_ cache: CacheName, _ change: (inout CacheStatus) -> Void) {
        state.withLock {
            if cache == .alerts { change(&$0.alerts) } else { change(&$0.stations) }
        }
        changed()
    }

    /// `hook` runs after each new snapshot is swapped in and after each status change, on the
    /// thread that made the change (a refresher's, or the loop's at a clock boundary), outside
    /// the snapshot's lock. It must return at once: subscriptions hand it to the loop.
    public func onChange(_ hook: @escaping @Sendable () -> Void) {
        changeHook.withLock { $0 = hook }
    }

    private func changed() {
        changeHook.withLock { $0 }?()
    }

    private func rebuild(at now: Instant, _ make: (Snapshot) -> Snapshot) {
        building.withLock { builds in
            swap(make(snapshot))
            builds += 1
        }
    }

    /// Encodes outside the lock, so readers wait only for the pointer swap.
    private func swap(_ next: Snapshot) {
        let (zones, current) = state.withLock { ($0.zones, $0.current.zone) }
        // A feed's agencies share one zone (GTFS requires it), so the first that names one speaks.
        let feedZone = next.stations?.agencies.lazy.compactMap(\.timeZone).first
        let encoded = EncodedSnapshot(next, zone: zones.shown(feed: feedZone, current: current))
        state.withLock {
            $0.current = encoded
            $0.alerts.count = next.liveAlerts.count
            $0.stations.count = next.stations?.count ?? 0
            $0.stations.note = next.stations?.linesKnown == false ? CacheStatus.linesUnknownNote : nil
        }
        changed()
    }
}
