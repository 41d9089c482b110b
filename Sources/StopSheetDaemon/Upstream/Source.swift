/// Validators from a previous good fetch, for a conditional GET.
public struct CacheValidators: Sendable, Equatable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// What a fetch brought back: new bytes, or word that nothing changed (HTTP 304). `companion`:
/// what a `CompanionSource`'s second URL brought beside them (the lift inventory, the stations'
/// topology), nil for every other source.
/// `stationTable`: what lift status's second companion, the deployer's station table
/// (`--facilities-stations-url`), brought.
public enum Fetched: Sendable {
    case body([UInt8], validators: CacheValidators, httpStatus: Int?, companion: CompanionFetch? = nil, stationTable: CompanionFetch? = nil)
    case notModified(httpStatus: Int, companion: CompanionFetch? = nil, stationTable: CompanionFetch? = nil)

    /// Why the companion in force was kept this round, when its URL failed.
    public var companionFailure: FetchFailure? {
        switch self {
        case .body(_, _, _, .failed(let failure)?, _), .notModified(_, .failed(let failure)?, _): failure
        default: nil
        }
    }
}

/// What a companion URL (`--facilities-inventory-url`, `--topology-url`) brought in a round, as
/// bytes: the loader decodes them (`CacheLoader`), and the one in force is the last that decoded.
public enum CompanionFetch: Sendable {
    /// A new body (the main body is then fetched whole, to be joined to it at once).
    case body([UInt8])
    /// The one in force holds: a 304, or its `Retry-After` not yet over.
    case unchanged
    /// The companion URL failed: the one in force, if any, is kept.
    case failed(FetchFailure)
}

/// Why a fetch failed, in words fit for `health.lastError` and the journal.
public struct FetchFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var httpStatus: Int?
    /// A `429` or `503`'s `Retry-After`, in seconds (at most `RetryAfter.maxSeconds`): the next
    /// attempt waits at least this long.
    public var retryAfterSeconds: Int?

    public init(_ message: String, httpStatus: Int? = nil, retryAfterSeconds: Int? = nil) {
        self.message = message
        self.httpStatus = httpStatus
        self.retryAfterSeconds = retryAfterSeconds
    }

    public var description: String { message }
}

/// Where a cache's bytes come from: `file://`, `http(s)://`, or the embedded demo snapshot.
/// `fetch` blocks; the refresher calls it on its own thread, never on the serving loop.
public protocol Source: Sendable {
    /// The URL as configured, for `health.source` and `UPSTREAM_URL`.
    var url: String { get }
    /// Gives up early, with a failure, once `stop` is raised: the daemon is stopping.
    func fetch(validators: CacheValidators?, stop: StopFlag) -> Result<Fetched, FetchFailure>
}

extension Source {
    /// A fetch nothing stops early.
    public func fetch(validators: CacheValidators?) -> Result<Fetched, FetchFailure> {
        fetch(validators: validators, stop: StopFlag())
    }
}
