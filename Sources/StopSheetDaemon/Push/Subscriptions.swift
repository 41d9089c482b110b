import StopSheetCore
import StopSheetProtocol
import Synchronization

/// `subscribe` / `unsubscribe` and the `stopSheetChanged` / `healthChanged` notifications
/// (protocol.md "Push"). A notification goes out exactly when an answer's bytes change: for each
/// new generation of the store the registry has `AnswerComparison` compare, once per watched stop
/// id (not per subscriber), the answer in the generation it last compared with the one in the
/// new, and queues the new one for each subscription watching it. A refresh is one generation,
/// so it gives at most one notification per watched stop. Health is compared by what a dashboard
/// acts on: status, each cache's loaded flag and lastError.
///
/// Threads: `storeChanged(to:post:)` is called from any thread (the store's hook) and hands the
/// comparison to the loop through `post`; everything else (the handlers, `update`, `clockMoved`,
/// the queues) runs on the loop thread, which owns all of the registry's state except `pending`
/// and the atomics. Debug builds check that one thread alone runs them (`OwningThread`).
public final class SubscriptionRegistry: @unchecked Sendable {
    private final class Subscription {
        let id: String
        let queue: NotificationQueue
        let stopIDs: [String]
        let watchesSheets: Bool
        let health: Bool
        /// Changes counted so far, sent or coalesced: the last notification's `seq`.
        var seq = 0

        init(id: String, queue: NotificationQueue, stopIDs: [String], watchesSheets: Bool, health: Bool) {
            self.id = id
            self.queue = queue
            self.stopIDs = stopIDs
            self.watchesSheets = watchesSheets
            self.health = health
        }
    }

    private let service: StopSheetService
    private let limits: SubscriptionLimits
    public let counters: SubscriptionCounters
    /// The newest generation the hook handed over and the loop has not compared yet: a burst of
    /// changes before the loop gets to it costs one comparison, with the newest.
    private let pending = Locked<Generation?>(nil)

    // Loop thread only.
    /// The watched answers and the health as last compared (`AnswerComparison`).
    private var comparison: AnswerComparison
    private var subscriptions: [String: Subscription] = [:]
    private var byQueue: [ObjectIdentifier: [String]] = [:]
    private var healthWatchers: [String] = []
    private var subscribedStops = 0
    private var lastID = 0
    private var thread = OwningThread()

    public init(service: StopSheetService, limits: SubscriptionLimits, counters: SubscriptionCounters) {
        self.service = service
        self.limits = limits
        self.counters = counters
        let generation = service.store.current
        comparison = AnswerComparison(generation, data: generation.sheetData(now: service.clock.now()))
    }

    public func register(in dispatcher: inout Dispatcher) {
        dispatcher.register(Methods.Subscribe.self) { [self] params, context in subscribe(params, context) }
        dispatcher.register(Methods.Unsubscribe.self) { [self] params, context in unsubscribe(params.subscription.text, context) }
    }

    /// The store's change hook, with the generation just published: at most one comparison is
    /// posted at a time, and a change made after it was taken posts the next one, so none is
    /// missed and a burst costs one.
    public func storeChanged(to new: Generation, post: (@escaping @Sendable () -> Void) -> Void) {
        let alreadyPosted = pending.withLock { pending in
            defer { pending = new }
            return pending != nil
        }
        guard !alreadyPosted else { return }
        post { [self] in
            guard let next = pending.withLock({ pending in defer { pending = nil }; return pending }) else { return }
            update(to: next)
        }
    }

    // MARK: - Comparing (loop thread)

    /// The clock moved (the loop's tick): data turns stale with it, in the generation last compared.
    public func clockMoved() { update(to: comparison.generation) }

    /// Compares every watched answer and the health key of the generation last compared with
    /// `next`, and queues a notification for each subscription of whatever changed.
    func update(to next: Generation) {
        thread.check("SubscriptionRegistry")
        let (changed, healthChanged) = comparison.compare(to: next, data: next.sheetData(now: service.clock.now())) { stopID, snapshot in
            Self.answer(service, stopID, in: snapshot)
        }
        // Per subscription in its own stop order, so a client sees its stops in the order it gave.
        var notified: Set<String> = []
        for stopID in changed {
            for id in comparison.watched[stopID]!.subscriptions where notified.insert(id).inserted {
                let subscription = subscriptions[id]!
                for stopID in subscription.stopIDs where changed.contains(stopID) {
                    queueSheet(subscription, stopID, comparison.watched[stopID]!.answer)
                }
            }
        }
        if healthChanged, !healthWatchers.isEmpty {
            let health = service.encodedHealth(of: next)
            for id in healthWatchers { queueHealth(subscriptions[id]!, health) }
        }
    }

    private func queueSheet(_ subscription: Subscription, _ stopID: String, _ answer: EncodedSheet?) {
        subscription.seq += 1
        let sheet = answer.map { PreEncoded($0, data: comparison.data.encoded) }
        let params = PreEncoded<Answer.SheetChanged>(SheetChangedMembers(subscription: subscription.id, seq: subscription.seq, stopId: stopID, sheet: Nullable(sheet)))
        queue(subscription, .init(Notifications.StopSheetChanged.self, params: params), about: stopID)
    }

    private func queueHealth(_ subscription: Subscription, _ health: PreEncoded<Answer.Health>) {
        subscription.seq += 1
        let params = PreEncoded<Answer.HealthChanged>(HealthChangedMembers(subscription: subscription.id, seq: subscription.seq, health: health))
        queue(subscription, .init(Notifications.HealthChanged.self, params: params), about: "")
    }

    /// The next notification of `subscription`, replacing an unsent one about the same stop (or,
    /// `about` empty, the health).
    private func queue(_ subscription: Subscription, _ notification: NotificationQueue.Notification, about item: String) {
        subscription.queue.post(notification, key: .init(group: subscription.id, item: item))
    }

    /// `stopSheet {stopId}`'s result members, nil when it would be -32001 (the stop is unknown).
    private static func answer(_ service: StopSheetService, _ stopID: String, in snapshot: EncodedSnapshot) -> EncodedSheet? {
        guard let query = try? StopSheetQuery(stopID: stopID) else { return nil }
        return try? service.stopSheet(query, in: snapshot)
    }


    // MARK: - Methods (loop thread)

    private func subscribe(_ params: Methods.Subscribe.Params, _ context: RPCContext) -> MethodReply<Answer.Subscribed> {
        thread.check("SubscriptionRegistry")
        guard let queue = context.notifications, !queue.ended else { return .error(.internalError("subscribe needs a connection")) }
        var seen: Set<String> = []
        let stopIDs = (params.stopIds ?? []).map(\.text).filter { seen.insert($0).inserted }
        let stopType = params.stopType ?? .default
        let health = params.health ?? false
        let mine = byQueue[ObjectIdentifier(queue)] ?? []
        guard mine.count < limits.maxSubscriptions else {
            return .error(.subscriptionLimit("at most \(limits.maxSubscriptions) subscriptions per connection (--max-subscriptions)"))
        }
        guard stopIDs.count <= limits.maxSubscriptionStops else {
            return .error(.subscriptionLimit("at most \(limits.maxSubscriptionStops) stops per subscription (--max-subscription-stops)"))
        }
        guard subscribedStops + stopIDs.count <= limits.maxSubscribedStops else {
            return .error(.subscriptionLimit("at most \(limits.maxSubscribedStops) subscribed stops in the daemon (--max-subscribed-stops)"))
        }
        // Every answer first, from the generation the registry last compared: a change after it is
        // then a notification, and an unknown id fails the call before anything is subscribed.
        // Kept without `data` too: the watched answers they start from.
        var answers: [EncodedSheet] = []
        for stopID in stopIDs {
            do {
                var query = try StopSheetQuery(stopID: stopID)
                query.stopType = stopType
                answers.append(try service.stopSheet(query, in: comparison.generation.encoded))
            } catch {
                return .error(error)
            }
        }
        lastID += 1
        let subscription = Subscription(id: "s\(lastID)", queue: queue, stopIDs: stopIDs, watchesSheets: stopType == .train, health: health)
        subscriptions[subscription.id] = subscription
        byQueue[ObjectIdentifier(queue), default: []].append(subscription.id)
        if mine.isEmpty {
            queue.counters = counters.notifications
            queue.onEnd = { [unowned self, unowned queue] in endAll(of: queue) }
        }
        if subscription.watchesSheets {
            for (stopID, answer) in zip(stopIDs, answers) {
                comparison.watch(stopID, answer: answer, by: subscription.id)
            }
        }
        if health { healthWatchers.append(subscription.id) }
        subscribedStops += stopIDs.count
        counters.record(subscriptions: subscriptions.count, stops: subscribedStops)

        let sheets: PreEncoded<[String: Answer.Sheet]>? = stopIDs.isEmpty ? nil : PreEncoded(orderedMembers: zip(stopIDs, answers).map { stopID, answer in
            (name: stopID, value: PreEncoded(answer, data: comparison.data.encoded))
        })
        return .result(PreEncoded(SubscribedMembers(subscription: subscription.id, sheets: sheets,
                                                    health: health ? service.encodedHealth(of: comparison.generation) : nil)))
    }

    private func unsubscribe(_ id: String, _ context: RPCContext) -> MethodReply<Bool> {
        thread.check("SubscriptionRegistry")
        // Only the connection that subscribed may end a subscription.
        guard let queue = context.notifications, let subscription = subscriptions[id], subscription.queue === queue else {
            return .error(.unknownSubscription(id))
        }
        end(subscription)
        byQueue[ObjectIdentifier(queue)]?.removeAll { $0 == id }
        queue.remove(group: id)
        return .result(PreEncoded(true))
    }

    private func endAll(of queue: NotificationQueue) {
        for id in byQueue.removeValue(forKey: ObjectIdentifier(queue)) ?? [] {
            if let subscription = subscriptions[id] { end(subscription) }
        }
    }

    private func end(_ subscription: Subscription) {
        subscriptions[subscription.id] = nil
        if subscription.watchesSheets {
            for stopID in subscription.stopIDs {
                comparison.unwatch(stopID, by: subscription.id)
            }
        }
        if subscription.health { healthWatchers.removeAll { $0 == subscription.id } }
        subscribedStops -= subscription.stopIDs.count
        counters.record(subscriptions: subscriptions.count, stops: subscribedStops)
    }
}

/// The limits of push, each a flag of the same name (protocol.md "Push"): what a client can make
/// the daemon hold.
public struct SubscriptionLimits: Sendable, Equatable {
    /// Subscriptions per connection.
    public var maxSubscriptions: Int
    /// Stops in one subscription.
    public var maxSubscriptionStops: Int
    /// Stops over all subscriptions of all connections (a stop in two subscriptions counts twice).
    public var maxSubscribedStops: Int

    public init(_ config: Config = .defaults) {
        maxSubscriptions = config.maxSubscriptions
        maxSubscriptionStops = config.maxSubscriptionStops
        maxSubscribedStops = config.maxSubscribedStops
    }
}
