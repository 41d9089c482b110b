import StopSheetCore

/// `--facilities-url` with its optional `--facilities-inventory-url`: each lift-status round reads
/// the inventory first (a conditional GET of its own, so an unchanged one costs a 304), then the
/// statuses. A new inventory fetches the statuses whole, so they are joined to it at once. An
/// inventory that fails after one loaded is kept, with a warning: where the lifts are changes
/// seldom, and the statuses must not go stale for it. One that never loaded fails the round.
///
/// Threads: its refresher's thread alone fetches; `inventory` is read by the same thread's decode.
final class FacilitiesSource: Source {
    let status: any Source
    let inventorySource: (any Source)?
    private struct InventoryState {
        var validators: CacheValidators?
        var loaded: (inventory: FacilityInventory, notices: FeedNotices)?
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
            let (previous, had) = state.withLock { ($0.validators, $0.loaded != nil) }
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
                failure = FetchFailure("inventory \(redactedURL(inventorySource.url)): \(error.message)", httpStatus: error.httpStatus)
            }
            if let failure {
                guard had else { return .failure(failure) }
                Log.warning("facilities: keeping the last good inventory: \(Log.oneLine(failure.message, maxBytes: 400))",
                            [JournalEvent.refreshFailed.field, ("UPSTREAM", CacheName.facilities.rawValue), ("UPSTREAM_URL", inventorySource.url)])
            }
        }
        return status.fetch(validators: statusValidators, stop: stop)
    }
}
