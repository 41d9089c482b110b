import StopSheetCore

/// `--facilities-url` with its optional `--facilities-inventory-url`: each lift-status round reads
/// the inventory first (a conditional GET of its own, so an unchanged one costs a 304), then the
/// statuses, and returns both as bytes (`Fetched.inventory`); `CacheLoader` decodes them. A new
/// inventory fetches the statuses whole, so they are joined to it at once. An inventory URL that
/// fails after one was fetched is `.failed`, and the loader keeps the inventory in force: where
/// the lifts are changes seldom, and the statuses must not go stale for it. One that never
/// fetched fails the round. The inventory URL's `Retry-After` holds its own fetches back: until it
/// ends, a round reads the statuses alone against the inventory in force (and with none fetched,
/// the round's failure carries the wait, so the refresher holds the whole round). A body that
/// does not decode is warned of once: its validators stand, so the URL is asked for the next
/// inventory, and the one in force stays until then.
///
/// Threads: its refresher's thread alone fetches.
final class FacilitiesSource: Source {
    let status: any Source
    let inventorySource: (any Source)?
    private struct InventoryState {
        var validators: CacheValidators?
        var fetched = false
        /// Monotonic milliseconds before which the inventory URL is not asked again.
        var heldUntil: Int64 = 0
    }
    private let state = Locked(InventoryState())

    init(status: any Source, inventory: (any Source)?) {
        self.status = status
        inventorySource = inventory
    }

    var url: String { status.url }

    func fetch(validators: CacheValidators?, stop: StopFlag) -> Result<Fetched, FetchFailure> {
        guard let inventorySource else { return status.fetch(validators: validators, stop: stop) }
        let (previous, fetched, heldUntil) = state.withLock { ($0.validators, $0.fetched, $0.heldUntil) }
        let inventory: InventoryFetch
        if fetched, SystemClock.monotonicMilliseconds() < heldUntil {
            inventory = .unchanged
        } else {
            let named = "inventory \(redactedURL(inventorySource.url))"
            switch inventorySource.fetch(validators: fetched ? previous : nil, stop: stop) {
            case .success(.body(let bytes, let next, _, _)):
                state.withLock { $0 = InventoryState(validators: next, fetched: true) }
                inventory = .body(bytes)
            case .success(.notModified):
                guard fetched else { return .failure(FetchFailure("\(named): 304 Not Modified with none loaded")) }
                inventory = .unchanged
            case .failure(let error):
                let failure = FetchFailure("\(named): \(error.message)", httpStatus: error.httpStatus, retryAfterSeconds: error.retryAfterSeconds)
                if let seconds = error.retryAfterSeconds {
                    state.withLock { $0.heldUntil = SystemClock.monotonicMilliseconds() + Int64(seconds) * 1000 }
                }
                guard fetched else { return .failure(failure) }
                inventory = .failed(failure)
            }
        }
        // A new inventory: the statuses whole, to be joined to it.
        let statusValidators = if case .body = inventory { CacheValidators?.none } else { validators }
        return status.fetch(validators: statusValidators, stop: stop).map { outcome in
            switch outcome {
            case .body(let bytes, let validators, let httpStatus, _): .body(bytes, validators: validators, httpStatus: httpStatus, inventory: inventory)
            case .notModified(let httpStatus, _): .notModified(httpStatus: httpStatus, inventory: inventory)
            }
        }
    }
}
