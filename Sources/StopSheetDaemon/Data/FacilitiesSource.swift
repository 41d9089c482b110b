import StopSheetCore

/// `--facilities-url` with its optional `--facilities-inventory-url`: each lift-status round reads
/// the inventory first (a conditional GET of its own, so an unchanged one costs a 304), then the
/// statuses. A new inventory fetches the statuses whole, so they are joined to it at once. An
/// inventory that fails after one loaded is kept, with a warning: where the lifts are changes
/// seldom, and the statuses must not go stale for it. One that never loaded fails the round.
/// The inventory URL's `Retry-After` holds its own fetches back: until it ends, a round reads the
/// statuses alone against the inventory in force (and with none loaded, the round's failure
/// carries the wait, so the refresher holds the whole round).
///
/// Threads: its refresher's thread alone fetches; `inventory` is read by the same thread's decode.
final class FacilitiesSource: Source {
    let status: any Source
    let inventorySource: (any Source)?
    private struct InventoryState {
        var validators: CacheValidators?
        var loaded: (inventory: FacilityInventory, notices: FeedNotices)?
        /// Monotonic milliseconds before which the inventory URL is not asked again.
        var heldUntil: Int64 = 0
    }
    private let state = Locked(InventoryState())

    init(status: any Source, inventory: (any Source)?) {
        self.status = status
        inventorySource = inventory
    }

    var url: String { status.url }

    /// The inventory in force: the last that loaded.
    var inventory: (inventory: FacilityInventory, notices: FeedNotices)? { state.withLock { $0.loaded } }

    func fetch(validators: CacheValidators?, stop: StopFlag) -> Result<Fetched, FetchFailure> {
        var statusValidators = validators
        if let inventorySource {
            let (previous, had, heldUntil) = state.withLock { ($0.validators, $0.loaded != nil, $0.heldUntil) }
            if had, SystemClock.monotonicMilliseconds() < heldUntil {
                return status.fetch(validators: statusValidators, stop: stop)
            }
            let failure: FetchFailure?
            switch inventorySource.fetch(validators: had ? previous : nil, stop: stop) {
            case .success(.body(let bytes, let next, _)):
                do {
                    let decoded = try FacilityInventoryDecoder.decode(bytes)
                    state.withLock { $0 = InventoryState(validators: next, loaded: decoded) }
                    statusValidators = nil
                    failure = nil
                } catch {
                    failure = FetchFailure("inventory \(redactedURL(inventorySource.url)) did not decode: \(error)")
                }
            case .success(.notModified):
                failure = had ? nil : FetchFailure("inventory \(redactedURL(inventorySource.url)): 304 Not Modified with none loaded")
            case .failure(let error):
                failure = FetchFailure("inventory \(redactedURL(inventorySource.url)): \(error.message)", httpStatus: error.httpStatus,
                                       retryAfterSeconds: error.retryAfterSeconds)
                if let seconds = error.retryAfterSeconds {
                    state.withLock { $0.heldUntil = SystemClock.monotonicMilliseconds() + Int64(seconds) * 1000 }
                }
            }
            if let failure {
                guard had else { return .failure(failure) }
                Log.warning("facilities: keeping the last good inventory: \(Log.oneLine(failure.message, maxBytes: 400))",
                            [JournalEvent.refreshFailed.field, ("UPSTREAM", CacheName.facilities.rawValue), ("UPSTREAM_URL", inventorySource.url)]
                                + (failure.retryAfterSeconds.map { [("RETRY_AFTER", String($0))] } ?? []))
            }
        }
        return status.fetch(validators: statusValidators, stop: stop)
    }
}
