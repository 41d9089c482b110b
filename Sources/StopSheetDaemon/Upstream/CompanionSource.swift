import StopSheetCore

/// A cache's URL with the second URL read beside it in each round: `--facilities-url` with its
/// `--facilities-inventory-url` (where the lifts are) and its `--facilities-stations-url` (the
/// stations its own references name: a second companion, read the same way), `--stations-url`
/// with its `--topology-url` (a deployer's station map). Each round reads the companion first (a conditional GET of its
/// own, so an unchanged one costs a 304), then the main URL, and returns both as bytes
/// (`Fetched`'s `companion`); `CacheLoader` decodes them. A new companion fetches the main body
/// whole, so they are joined at once. A companion URL that fails after one was fetched is
/// `.failed`, and the loader keeps the one in force: it changes seldom, and the main data must
/// not go stale for it. One that never fetched fails the round when `required` (the inventory:
/// statuses cannot be placed without it), else is `.failed` too and the main data loads without
/// one (the stations: a map is more, never a condition). The companion URL's `Retry-After` holds
/// its own fetches back: until it ends, a round reads the main URL alone against the companion
/// in force (and with none fetched, a required one's failure carries the wait, so the refresher
/// holds the whole round). A body that does not decode is warned of once: its validators stand,
/// so the URL is asked for the next one, and the one in force stays until then.
///
/// Threads: its refresher's thread alone fetches.
final class CompanionSource: Source {
    let main: any Source
    let companion: (any Source)?
    /// How messages name the companion: `inventory`, `topology`.
    let companionName: String
    let required: Bool
    /// Lift status's second companion, the deployer's station table (`--facilities-stations-url`),
    /// read as the first is, never required: without one, units are joined by the other rules.
    let stationTable: (any Source)?
    private struct CompanionState {
        var validators: CacheValidators?
        var fetched = false
        /// Monotonic milliseconds before which the companion URL is not asked again.
        var heldUntil: Int64 = 0
    }
    private let state = Locked(CompanionState())
    private let tableState = Locked(CompanionState())

    init(main: any Source, companion: (any Source)?, named companionName: String, required: Bool, stationTable: (any Source)? = nil) {
        self.main = main
        self.companion = companion
        self.companionName = companionName
        self.required = required
        self.stationTable = stationTable
    }

    var url: String { main.url }

    func fetch(validators: CacheValidators?, stop: StopFlag) -> Result<Fetched, FetchFailure> {
        guard companion != nil || stationTable != nil else { return main.fetch(validators: validators, stop: stop) }
        var brought: CompanionFetch?
        if let companion {
            switch Self.fetch(companion, named: companionName, required: required, state: state, stop: stop) {
            case .success(let fetch): brought = fetch
            case .failure(let failure): return .failure(failure)
            }
        }
        var table: CompanionFetch?
        if let stationTable {
            switch Self.fetch(stationTable, named: "station table", required: false, state: tableState, stop: stop) {
            case .success(let fetch): table = fetch
            case .failure(let failure): return .failure(failure)
            }
        }
        // A new companion: the main body whole, to be joined to it.
        let isNew = { (fetch: CompanionFetch?) in if case .body? = fetch { true } else { false } }
        let mainValidators = isNew(brought) || isNew(table) ? CacheValidators?.none : validators
        return main.fetch(validators: mainValidators, stop: stop).map { outcome in
            switch outcome {
            case .body(let bytes, let validators, let httpStatus, _, _):
                .body(bytes, validators: validators, httpStatus: httpStatus, companion: brought, stationTable: table)
            case .notModified(let httpStatus, _, _): .notModified(httpStatus: httpStatus, companion: brought, stationTable: table)
            }
        }
    }

    /// One companion's round: its body, `unchanged`, or `failed` (the one in force kept); a
    /// failure of the whole round only for a `required` one never fetched.
    private static func fetch(_ companion: any Source, named name: String, required: Bool, state: Locked<CompanionState>,
                              stop: StopFlag) -> Result<CompanionFetch, FetchFailure> {
        let (previous, fetched, heldUntil) = state.withLock { ($0.validators, $0.fetched, $0.heldUntil) }
        if fetched, SystemClock.monotonicMilliseconds() < heldUntil { return .success(.unchanged) }
        let named = "\(name) \(redactedURL(companion.url))"
        switch companion.fetch(validators: fetched ? previous : nil, stop: stop) {
        case .success(.body(let bytes, let next, _, _, _)):
            state.withLock { $0 = CompanionState(validators: next, fetched: true) }
            return .success(.body(bytes))
        case .success(.notModified):
            guard fetched else { return .failure(FetchFailure("\(named): 304 Not Modified with none loaded")) }
            return .success(.unchanged)
        case .failure(let error):
            let failure = FetchFailure("\(named): \(error.message)", httpStatus: error.httpStatus, retryAfterSeconds: error.retryAfterSeconds)
            if let seconds = error.retryAfterSeconds {
                state.withLock { $0.heldUntil = SystemClock.monotonicMilliseconds() + Int64(seconds) * 1000 }
            }
            guard fetched || !required else { return .failure(failure) }
            return .success(.failed(failure))
        }
    }
}
