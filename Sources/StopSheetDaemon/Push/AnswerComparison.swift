import StopSheetCore
import StopSheetProtocol

/// What push compares between two generations of the store, apart from who is told (the
/// subscriptions and their handlers, `SubscriptionRegistry`): each watched stop's `stopSheet`
/// answer, once per stop id however many subscriptions watch it, and the health key. A sheet
/// changes when its bytes without `data` change or when a cache's `loaded` or `stale` flips
/// (`SheetData.sameState`), never by age alone. Owned by the serving loop.
struct AnswerComparison {
    /// A stop id some train subscription watches: its answer as last compared (nil: unknown
    /// stop) and who watches it, in subscription order.
    struct WatchedStop {
        var answer: EncodedSheet?
        var subscriptions: [String]
    }

    /// What `healthChanged` follows; the rest of `health` (ages, uptime) changes every second.
    private struct HealthKey: Equatable {
        var status: HealthState
        var loaded: [Bool]
        var lastErrors: [String?]

        /// Through `Generation.health`, the very rule `health` answers with.
        init(_ generation: Generation) {
            let statuses = CacheName.allCases.map(generation.status)
            (status, loaded, lastErrors) = (generation.health, statuses.map(\.loaded), statuses.map(\.lastError))
        }
    }

    /// The generation the watched answers were last compared in.
    private(set) var generation: Generation
    /// The train sheets' `data` as last compared.
    private(set) var data: SheetData
    private(set) var watched: [String: WatchedStop] = [:]

    init(_ generation: Generation, data: SheetData) {
        self.generation = generation
        self.data = data
    }

    /// What changed from the generation last compared to `next` at `nextData`: the watched stops
    /// whose answer did (now kept as the new one), and whether the health key did.
    mutating func compare(to next: Generation, data nextData: SheetData, answer: (String, EncodedSnapshot) -> EncodedSheet?) -> (stops: Set<String>, health: Bool) {
        let previous = generation
        generation = next
        let dataChanged = !nextData.sameState(as: data)
        data = nextData
        var changed: Set<String> = []
        if next.encoded !== previous.encoded || dataChanged {
            for (stopID, stop) in watched {
                let new = answer(stopID, next.encoded)
                guard new != stop.answer || (dataChanged && new != nil) else { continue }
                watched[stopID]!.answer = new
                changed.insert(stopID)
            }
        }
        return (changed, HealthKey(next) != HealthKey(previous))
    }

    /// `subscription` watches `stopID`, whose answer in `generation` is `answer`.
    mutating func watch(_ stopID: String, answer: EncodedSheet?, by subscription: String) {
        if watched[stopID] == nil { watched[stopID] = WatchedStop(answer: answer, subscriptions: []) }
        watched[stopID]!.subscriptions.append(subscription)
    }

    /// `subscription` no longer watches `stopID`; a stop nobody watches is compared no more.
    mutating func unwatch(_ stopID: String, by subscription: String) {
        watched[stopID]?.subscriptions.removeAll { $0 == subscription }
        if watched[stopID]?.subscriptions.isEmpty == true { watched[stopID] = nil }
    }
}
