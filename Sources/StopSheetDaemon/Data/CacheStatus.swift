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

    public static let linesUnknownNote =
        "lines unknown: GTFS stops.txt alone names no lines, so alerts about a line match no station; use a whole GTFS feed"

    public init(source: String) { self.source = source }

    /// The cache's entry in `health` (and in a `refresh` answer): `ageSeconds` is the age at `now`.
    public func json(at now: Instant) -> JSON {
        func time(_ instant: Instant?) -> JSON { instant.map { .string($0.description) } ?? .null }
        return [
            "loaded": .bool(loaded),
            "count": .int(count),
            "loadedAt": time(loadedAt),
            "lastAttemptAt": time(lastAttemptAt),
            "lastError": lastError.map(JSON.string) ?? .null,
            "source": .string(source),
            "consecutiveFailures": .int(consecutiveFailures),
            "nextRefreshAt": time(nextRefreshAt),
            "lastHTTPStatus": lastHTTPStatus.map(JSON.int) ?? .null,
            "ageSeconds": loadedAt.map { .int(Int(now.seconds(since: $0))) } ?? .null,
            "note": note.map(JSON.string) ?? .null,
        ]
    }
}
