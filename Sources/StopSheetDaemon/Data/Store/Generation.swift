import StopSheetCore

/// Everything the daemon answers from, as of one change: the snapshot with its encoded sheets
/// and the caches' status, built together and published by the `Store` with one swap. Readers
/// take one generation per answer (`Store.current`), so no answer can pair new alerts with an
/// old status; subscriptions compare two of them (`Store.onChange`). Immutable and shared by
/// reference: built on the thread that made the change, read from any.
public final class Generation: Sendable {
    public let encoded: EncodedSnapshot
    public let alerts: CacheStatus
    public let stations: CacheStatus
    public let facilities: CacheStatus
    /// The zones in force (`--time-zone`); `encoded.zone` is the one its answers show.
    public let zones: TimeZones
    /// The last good lift-status load as fetched, with the zone its wall-clock times were read in:
    /// read again when the zone shown changes (the stations naming the agency's zone after it).
    let facilitiesFetched: FacilitiesLoad?
    /// What each answer's `data` is made from, kept apart from the statuses so that making it
    /// copies no status (their strings would be retained and released per answer).
    private let alertsLoad: (lastGoodLoad: Instant?, producedAt: Instant?, staleAfterSeconds: Int64, configured: Bool)
    private let stationsLoad: (lastGoodLoad: Instant?, producedAt: Instant?, staleAfterSeconds: Int64, configured: Bool)
    private let facilitiesLoad: (lastGoodLoad: Instant?, producedAt: Instant?, staleAfterSeconds: Int64, configured: Bool)

    init(_ encoded: EncodedSnapshot, alerts: CacheStatus, stations: CacheStatus, facilities: CacheStatus, zones: TimeZones,
         facilitiesFetched: FacilitiesLoad? = nil) {
        self.encoded = encoded
        self.facilitiesFetched = facilitiesFetched
        self.alerts = alerts
        self.stations = stations
        self.facilities = facilities
        self.zones = zones
        alertsLoad = (alerts.loaded ? alerts.loadedAt : nil, alerts.producedAt, alerts.staleAfterSeconds, alerts.configured)
        stationsLoad = (stations.loaded ? stations.loadedAt : nil, stations.producedAt, stations.staleAfterSeconds, stations.configured)
        facilitiesLoad = (facilities.loaded ? facilities.loadedAt : nil, facilities.producedAt, facilities.staleAfterSeconds, facilities.configured)
    }

    public var snapshot: Snapshot { encoded.snapshot }

    public func status(_ cache: CacheName) -> CacheStatus {
        switch cache {
        case .alerts: alerts
        case .stations: stations
        case .facilities: facilities
        }
    }

    /// The train sheets' `data` at `now`.
    public func sheetData(now: Instant) -> SheetData {
        func freshness(_ load: (lastGoodLoad: Instant?, producedAt: Instant?, staleAfterSeconds: Int64, configured: Bool)) -> DataFreshness {
            DataFreshness(lastGoodLoad: load.lastGoodLoad, producedAt: load.producedAt, now: now, staleAfterSeconds: load.staleAfterSeconds,
                          configured: load.configured)
        }
        return SheetData(alerts: freshness(alertsLoad), stations: freshness(stationsLoad), facilities: freshness(facilitiesLoad), zone: encoded.zone)
    }

    /// `health.status`, by the one rule `HealthState` writes, over the caches that have a source.
    public var health: HealthState { HealthState([alerts, stations, facilities].filter(\.configured)) }

    /// The configured caches that have not loaded yet: what `--notify-ready when-loaded` and
    /// `stopsheetctl wait` wait for.
    public var notYetLoaded: [CacheName] { CacheName.allCases.filter { status($0).configured && !status($0).loaded } }
}

/// A cache's newly decoded data, for `Store.commit`.
public enum CacheContent: Sendable {
    /// A good alert load replaces the alert set (and the feed's own time and zone).
    case alerts(DecodedAlerts)
    /// A good station load replaces the whole station set: stations gone upstream are gone.
    case stations(StationDirectory)
    /// A good lift-status load replaces the statuses, and the inventory with them.
    case facilities(FacilitiesLoad)
}
