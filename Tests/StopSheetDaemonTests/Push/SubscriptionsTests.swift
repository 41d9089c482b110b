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

        init() {
            let service = StopSheetService(store: store, refreshers: [], connections: { 0 }, clock: store.clock)
            registry = SubscriptionRegistry(service: service, limits: SubscriptionLimits(), counters: counters)
            registry.register(in: &dispatcher)
            store.onChange { [registry, loop] _, new in registry.storeChanged(to: new, post: loop.run) }
        }

        /// `method` with `params` from `client`, on the loop: the result's JSON, or nil for an error.
        func call(_ method: String, _ params: JSON, from client: Client) -> JSON? {
            let reply = Locked<[UInt8]?>(nil)
            loop.run { [self] in
                if case .result(let bytes) = dispatcher.reply(to: RPCRequest(id: .number("1"), method: method, params: params), context: client.context) {
                    reply.withLock { $0 = bytes }
                }
            }
            return reply.withLock { $0 }.flatMap { try? JSONParser.parse($0) }
        }

        /// `(method, subscription)` of each notification `client` was sent since the last call.
        func pushed(to client: Client) throws -> [String] {
            let written = Locked<[UInt8]>([])
            loop.run { written.withLock { out in _ = client.queue.write(into: &out, outputLimit: .max) } }
            return try String(decoding: written.withLock { $0 }, as: UTF8.self).split(separator: "\n").map {
                let line = try JSONParser.parse(String($0))
                return "\(line["method"]?.stringValue ?? "?") \(line["params"]?["subscription"]?.stringValue ?? "?")"
            }
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
}
