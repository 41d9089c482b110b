import Synchronization

/// What `health` says of push: subscriptions, subscribed stops, and the notifications queued
/// unsent with their bytes (bounded by what is subscribed, however often it changes). Kept by
/// Push's registry, read by `health`, which sits below Push. Written on the loop thread, read
/// from anywhere.
public final class SubscriptionCounters: Sendable {
    let subscriptions = Atomic<Int>(0)
    let stops = Atomic<Int>(0)
    let notifications = NotificationCounters()

    public init() {}

    func record(subscriptions: Int, stops: Int) {
        self.subscriptions.store(subscriptions, ordering: .relaxed)
        self.stops.store(stops, ordering: .relaxed)
    }
}
