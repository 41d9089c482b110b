import StopSheetCore

/// The caches the daemon keeps: alerts and stations, and the optional lift status.
public enum CacheName: String, Sendable, CaseIterable {
    case alerts, stations, facilities
}

/// What `health` tells about one cache: whether it has ever loaded, how fresh it is, and how
/// its source is doing. `loadedAt` moves on every good refresh (a 304 included).
public struct CacheStatus: Sendable, Equatable {
    public var source: String
    /// False for a cache the daemon was given no source for (`--alerts-url` or `--stations-url`
    /// alone): it is "not configured", never "not loaded", and readiness leaves it out.
    public var configured = true
    public var loaded = false
    public var count = 0
    public var loadedAt: Instant?
    public var lastAttemptAt: Instant?
    public var lastError: String?
    public var consecutiveFailures = 0
    public var nextRefreshAt: Instant?
    public var lastHTTPStatus: Int?
    /// A limit of the data being served, in words (GTFS `stops.txt` alone names no lines).
    public var note: String?
    /// When the feed of the data served says it was made (`DecodedAlerts.producedAt`); nil
    /// when it does not say. Kept through a 304, which is the same feed.
    public var producedAt: Instant?
    /// The zone the data served names for its wall-clock times (`DecodedAlerts.timeZone`).
    public var timeZone: String?
    /// The stations and lift-status caches': the rows and values their sources had to skip (nil for alerts).
    public var notices: FeedNotices?
    /// Refresh rounds since start-up that succeeded (a 304 included) and that failed, for
    /// `stats`; not part of `health`.
    public var refreshesSucceeded = 0
    public var refreshesFailed = 0
    /// `--alerts-stale-after` / `--stations-stale-after`: older good data is `stale` (the
    /// daemon sets each cache's own with `applyStaleAfter`).
    public var staleAfterSeconds = Int64(Config.defaults.alertsStaleAfter)
    /// The lift-status cache's: `--facilities-radius`, the position join's reach in metres (set
    /// with the stale-after limits, `applyStaleAfter`, and applied on reload).
    public var radiusMeters = Config.defaults.facilitiesRadius

    public static let linesUnknownNote =
        "lines unknown: GTFS stops.txt alone names no lines, so alerts about a line match no station; use a whole GTFS feed"

    /// The note for lines unknown: `stops.txt` alone, or a feed without the tables `missing`.
    public static func linesUnknownNote(missing: [String]) -> String {
        guard !missing.isEmpty else { return linesUnknownNote }
        return "lines unknown: the GTFS feed has no \(missing.joined(separator: ", ")), so alerts about a line match no station"
    }

    public init(source: String) { self.source = source }

    /// A cache with no source: it never loads, and nothing waits for it.
    public static let notConfigured = { var status = CacheStatus(source: ""); status.configured = false; return status }()

    /// How fresh the cache's data is at `now` (the sheet's `data`, `health`).
    public func freshness(now: Instant) -> DataFreshness {
        DataFreshness(lastGoodLoad: loaded ? loadedAt : nil, producedAt: producedAt, now: now, staleAfterSeconds: staleAfterSeconds,
                      configured: configured)
    }

    /// The source has failed and nothing was ever loaded from it: no data yet, not "the last
    /// good data kept".
    public var failingWithNoData: Bool { !loaded && consecutiveFailures > 0 }

    /// `health`'s note at `now`: the limit of the data served, else why data fetched a moment
    /// ago is stale (its feed says it was made long before), times in `zone`.
    public func note(at now: Instant, in zone: TimeZoneRules) -> String? {
        note ?? madeTooLongAgoNote(now, zone)
    }

    private func madeTooLongAgoNote(_ now: Instant, _ zone: TimeZoneRules) -> String? {
        guard loaded, let producedAt, DataFreshness.madeTooLongAgo(producedAt, now: now, staleAfterSeconds: staleAfterSeconds) else { return nil }
        return "the feed says it was made at \(zone.iso8601(producedAt)), over \(staleAfterSeconds) s ago"
    }
}

extension FeedNotices {
    /// The journal's words for them: the count and the first.
    var sentence: String? {
        guard let notice = first.first else { return nil }
        return "\(count) rows or values skipped; the first: \(notice.file) line \(notice.line): \(Log.oneLine(notice.problem, maxBytes: 400))"
    }
}

extension Store {
    /// Takes each cache's stale-after limit (and lift status's radius) from `config`: at start-up.
    func applyStaleAfter(_ config: Config) {
        for cache in CacheName.allCases {
            updateStatus(cache) {
                $0.staleAfterSeconds = config.staleAfterSeconds(cache)
                $0.radiusMeters = config.facilitiesRadius
            }
        }
    }
}

extension Config {
    /// How old one cache's data may be before sheets and `health` call it stale.
    func staleAfterSeconds(_ cache: CacheName) -> Int64 {
        switch cache {
        case .alerts: Int64(alertsStaleAfter)
        case .stations: Int64(stationsStaleAfter ?? 3 * stationsInterval)
        case .facilities: Int64(facilitiesStaleAfter)
        }
    }
}
