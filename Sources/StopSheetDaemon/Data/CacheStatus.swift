import StopSheetCore

/// The two caches the daemon keeps.
public enum CacheName: String, Sendable, CaseIterable {
    case alerts, stations
}

/// What `health` tells about one cache: whether it has ever loaded, how fresh it is, and how
/// its source is doing. `loadedAt` moves on every good refresh (a 304 included).
public struct CacheStatus: Sendable, Equatable {
    public var source: String
    public var loaded = false
    public var count = 0
    public var loadedAt: Instant?
    public var lastAttemptAt: Instant?
    public var lastError: String?
    public var consecutiveFailures = 0
    public var nextRefreshAt: Instant?
    public var lastHTTPStatus: Int?
    public var lastDurationMilliseconds: Int?
    /// A limit of the data being served, in words (GTFS `stops.txt` alone names no lines).
    public var note: String?
    /// Refresh rounds since start-up that succeeded (a 304 included) and that failed, for
    /// `stats`; not part of `health`.
    public var refreshesSucceeded = 0
    public var refreshesFailed = 0
    /// `--alerts-stale-after` / `--stations-stale-after`: older good data is `stale` (the
    /// daemon sets each cache's own with `applyStaleAfter`).
    public var staleAfterSeconds = Int64(Config.defaults.alertsStaleAfter)

    public static let linesUnknownNote =
        "lines unknown: GTFS stops.txt alone names no lines, so alerts about a line match no station; use a whole GTFS feed"

    public init(source: String) { self.source = source }

    /// How fresh the cache's data is at `now` (the sheet's `data`, `health`).
    public func freshness(now: Instant) -> DataFreshness {
        DataFreshness(lastGoodLoad: loaded ? loadedAt : nil, now: now, staleAfterSeconds: staleAfterSeconds)
    }

    /// The source has failed and nothing was ever loaded from it: no data yet, not "the last
    /// good data kept".
    public var failingWithNoData: Bool { !loaded && consecutiveFailures > 0 }
}

extension Store {
    /// Takes each cache's stale-after limit from `config`: at start-up and on reload.
    func applyStaleAfter(_ config: Config) {
        for cache in CacheName.allCases {
            updateStatus(cache) { $0.staleAfterSeconds = Daemon.staleAfterSeconds(cache, config) }
        }
    }
}
