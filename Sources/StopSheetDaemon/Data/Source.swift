/// Validators from a previous good fetch, for a conditional GET.
public struct CacheValidators: Sendable, Equatable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// What a fetch brought back: new bytes, or word that nothing changed (HTTP 304). `inventory`:
/// what a lift-status source's inventory URL brought beside them (`FacilitiesSource`), nil for
/// every other source.
public enum Fetched: Sendable {
    case body([UInt8], validators: CacheValidators, httpStatus: Int?, inventory: InventoryFetch? = nil)
    case notModified(httpStatus: Int, inventory: InventoryFetch? = nil)

    /// Why the inventory in force was kept this round, when its URL failed.
    public var inventoryFailure: FetchFailure? {
        switch self {
        case .body(_, _, _, .failed(let failure)?), .notModified(_, .failed(let failure)?): failure
        default: nil
        }
    }
}

/// What `--facilities-inventory-url` brought in a lift-status round, as bytes: the loader decodes
/// them (`CacheLoader`), and the inventory in force is the last that decoded.
public enum InventoryFetch: Sendable {
    /// A new inventory body (its statuses are then fetched whole, to be joined to it at once).
    case body([UInt8])
    /// The inventory in force holds: a 304, or its `Retry-After` not yet over.
    case unchanged
    /// The inventory URL failed after one had been fetched: the one in force is kept.
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
