import StopSheetCore
import StopSheetProtocol
import Testing
@testable import StopSheetDaemon

/// The registry's book-keeping of subscriptions (protocol.md "Push"), driven as the loop drives
/// it: subscribe and unsubscribe through the dispatcher, a store change compared on a stand-in
/// loop thread, the notifications read from each connection's queue. What the integration tests
/// show through the binary, stated here without one: a bus sheet never changes, so a bus
/// subscription is told of nothing; an unsubscribed subscription is told of nothing more, and
/// the connection's others are; a connection's end ends every subscription it still has.
@Suite struct SubscriptionsTests {
    /// A connection: its queue and its context, as a session gives the handlers.
    final class Client: @unchecked Sendable {
        let queue = StopSheetDaemon.NotificationQueue {}
        lazy var context = RPCContext(peer: PeerCredentials(pid: 1, uid: 1000, gid: 1000), notifications: queue)
    }

    /// A store with stations and no alerts yet, its registry, and a loop thread to run them.
    final class Rig: @unchecked Sendable {
        let store = GenerationTests.store()
        let counters = SubscriptionCounters()
        let registry: SubscriptionRegistry
        let loop = GenerationTests.StandInLoop()
        private var dispatcher = Dispatcher()

        init(limits: SubscriptionLimits = SubscriptionLimits()) {
            let service = StopSheetService(store: store, refreshers: [], connections: { 0 }, clock: store.clock)
            registry = SubscriptionRegistry(service: service, limits: limits, counters: counters)
            registry.register(in: &dispatcher)
            store.onChange { [registry, loop] _, new in registry.storeChanged(to: new, post: loop.run) }
        }

        /// `method` with `params` from `client`, on the loop: the result's JSON, or nil for an error.
        func call(_ method: String, _ params: JSON, from client: Client) -> JSON? {
            guard case .result(let bytes)? = reply(method, params, from: client) else { return nil }
            return try? JSONParser.parse(bytes)
        }

        /// The dispatcher's reply to `method` with `params` from `client`, on the loop.
        func reply(_ method: String, _ params: JSON, from client: Client) -> RPCReply? {
            let reply = Locked<RPCReply?>(nil)
            loop.run { [self] in
                let answer = dispatcher.reply(to: RPCRequest(id: .number("1"), method: method, params: params), context: client.context)
                reply.withLock { $0 = answer }
            }
            return reply.withLock { $0 }
        }

        /// `(method, subscription)` of each notification `client` was sent since the last call.
        func pushed(to client: Client) throws -> [String] {
            try notifications(to: client).map { "\($0["method"]?.stringValue ?? "?") \($0["params"]?["subscription"]?.stringValue ?? "?")" }
        }

        /// Each notification `client` was sent since the last call, whole.
        func notifications(to client: Client) throws -> [JSON] {
            let written = Locked<[UInt8]>([])
            loop.run { written.withLock { out in _ = client.queue.write(into: &out, outputLimit: .max) } }
            return try String(decoding: written.withLock { $0 }, as: UTF8.self).split(separator: "\n").map { try JSONParser.parse(String($0)) }
        }

        /// The connection's end, as the loop tells its session.
        func end(_ client: Client) { loop.run { client.queue.end() } }

        var subscriptions: Int { counters.subscriptions.load(ordering: .relaxed) }
    }

    @Test func aBusSubscriptionIsToldOfNoChangeOfItsStopAndATrainSubscriptionIs() throws {
        let rig = Rig()
        defer { #expect(rig.loop.stop()) }
        let client = Client()
        let train = try #require(rig.call("subscribe", ["stopIds": ["40380"]], from: client)?["subscription"]?.stringValue)
        let bus = try #require(rig.call("subscribe", ["stopIds": ["40380"], "stopType": "bus"], from: client)?["subscription"]?.stringValue)
        #expect(train != bus)

        try GenerationTests.refreshAlerts(rig.store)
        #expect(try rig.pushed(to: client) == ["stopSheetChanged \(train)"], "alerts loaded change the train sheet alone")
    }

    @Test func anUnsubscribedSubscriptionHearsNothingMoreAndTheConnectionsEndEndsTheRest() throws {
        let rig = Rig()
        defer { #expect(rig.loop.stop()) }
        let client = Client()
        let first = try #require(rig.call("subscribe", ["stopIds": ["40380"]], from: client)?["subscription"]?.stringValue)
        let second = try #require(rig.call("subscribe", ["stopIds": ["40380", "40990"]], from: client)?["subscription"]?.stringValue)
        let stranger = Client()
        #expect(rig.call("unsubscribe", ["subscription": .string(first)], from: stranger) == nil, "only its own connection ends a subscription")
        #expect(rig.call("unsubscribe", ["subscription": .string(first)], from: client) == true)
        #expect(rig.call("unsubscribe", ["subscription": .string(first)], from: client) == nil, "ended once: unknown after")
        #expect(rig.subscriptions == 1)

        try GenerationTests.refreshAlerts(rig.store)
        #expect(try rig.pushed(to: client) == ["stopSheetChanged \(second)", "stopSheetChanged \(second)"], "its two stops, not the ended one's")

        rig.end(client)
        #expect(rig.subscriptions == 0, "the connection's end ends the subscription it still had")
        #expect(rig.counters.stops.load(ordering: .relaxed) == 0)
    }

    /// protocol.md "Push": subscriptions are named s1, s2, … in the order made; `seq` counts one
    /// subscription's changes from 1 over all its stops and its health; a subscription made with
    /// `health` hears each change of the health answer, and one unsubscribed no longer does.
    @Test func seqCountsEachSubscriptionsChangesOverItsStopsAndItsHealth() throws {
        let rig = Rig()
        defer { #expect(rig.loop.stop()) }
        let client = Client()
        let both = try #require(rig.call("subscribe", ["stopIds": ["40380", "40990"], "health": true], from: client))
        #expect(both["subscription"] == "s1" && both["health"]?["status"] != nil)
        #expect(rig.call("subscribe", ["health": true], from: client)?["subscription"] == "s2")
        #expect(rig.call("subscribe", ["health": true], from: client)?["subscription"] == "s3")
        #expect(rig.call("unsubscribe", ["subscription": "s2"], from: client) == true)

        try GenerationTests.refreshAlerts(rig.store)
        let told = try rig.notifications(to: client).map {
            "\($0["method"]?.stringValue ?? "?") \($0["params"]?["subscription"]?.stringValue ?? "?") \($0["params"]?["seq"]?.intValue ?? 0)"
                + " \($0["params"]?["stopId"]?.stringValue ?? "-")"
        }
        #expect(told == ["stopSheetChanged s1 1 40380", "stopSheetChanged s1 2 40990", "healthChanged s1 3 -", "healthChanged s3 1 -"],
                "alerts loaded: both stops of s1 and the health, then s3's health; s2 ended")
    }

    /// Each limit of push admits exactly its number: stops per subscription, subscriptions per
    /// connection, stops in the daemon (over all connections); one more is -32006 naming its flag.
    @Test func eachLimitAdmitsItsNumberAndRefusesOneMore() throws {
        var limits = SubscriptionLimits()
        (limits.maxSubscriptions, limits.maxSubscriptionStops, limits.maxSubscribedStops) = (2, 2, 3)
        let rig = Rig(limits: limits)
        defer { #expect(rig.loop.stop()) }
        let (client, other) = (Client(), Client())
        func refusal(_ params: JSON, from client: Client) -> String? {
            guard case .error(let error)? = rig.reply("subscribe", params, from: client), error.code == ErrorCode.subscriptionLimit.rawValue else { return nil }
            return error.data?.stringValue
        }
        #expect(refusal(["stopIds": ["40380", "40990", "41320"]], from: client) == "at most 2 stops per subscription (--max-subscription-stops)")
        #expect(rig.call("subscribe", ["stopIds": ["40380", "40990"]], from: client) != nil, "two stops: the limit itself")
        #expect(refusal(["stopIds": ["40380", "40990"]], from: other) == "at most 3 subscribed stops in the daemon (--max-subscribed-stops)")
        #expect(rig.call("subscribe", ["stopIds": ["40380"]], from: other) != nil, "three stops in all: the limit itself")
        #expect(rig.call("subscribe", ["health": true], from: client)?["subscription"] == "s3", "this connection's second: the limit itself")
        #expect(refusal(["health": true], from: client) == "at most 2 subscriptions per connection (--max-subscriptions)")
        #expect(rig.call("unsubscribe", ["subscription": "s1"], from: client) == true)
        #expect(rig.call("subscribe", ["stopIds": ["40380", "40990"]], from: client) != nil, "the ended one's slot and stops are free again")
    }
}
