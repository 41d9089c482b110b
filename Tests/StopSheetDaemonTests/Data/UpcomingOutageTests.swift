import StopSheetCore
import StopSheetProtocol
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// An upcoming outage (NYCT's `isupcomingoutage`) counts from its start to its end by the clock
/// alone: no new fetch, the loop's tick rebuilds at each moment (`rebuildIfBoundaryPassed`, as
/// `Daemon.tick` calls it) and subscribers hear of each change. The test moves the clock.
@Suite struct UpcomingOutageTests {
    /// EL319 of the hand-made NYCT feed: out from 09/28/2026 10:00 PM to 09/29/2026 06:00 AM, New York.
    static let start = Instant(secondsSince1970: 1_790_647_200)
    static let end = Instant(secondsSince1970: 1_790_676_000)
    static let t0 = start.adding(seconds: -3_600)

    @Test func anUpcomingOutageStartsAndEndsByTheClockAloneAndIsPushedAtBoth() throws {
        let clock = ManualClock(Self.t0)
        let store = Store(alertsSource: nil, stationsSource: "test:stations", facilitiesSource: "test:facilities", clock: clock.clock, zones: .cta)
        // Stale-after longer than the outage: the verdicts below are the outage's, not staleness's.
        store.reconfigure(sources: [:], staleAfterSeconds: [.facilities: 86_400], zones: store.current.zones)
        let stops = Fixtures.bytes("facilities/gtfs/stops.txt")
        store.install(stations: StationDirectory(platforms: try GTFSStopsDecoder.decode(stops).platforms,
                                                 agencies: [Agency(id: "MTA", name: "MTA", timeZone: "America/New_York")]), at: Self.t0)
        // The feed's upcoming EL319 alone: EL318 beside it is out throughout and would hide the change.
        let outages = try #require(JSONParser.parse(Fixtures.bytes("facilities/nyct_ene.HANDMADE.json")).arrayValue)
        let upcoming = Array(JSON.array(outages.filter { $0["equipment"] == "EL319" }).encodedString.utf8)
        let feed = try FacilitiesBody.decode(upcoming, local: store.zone)
        #expect(feed.units.map(\.isUpcoming) == [true])
        let (inventory, _) = try FacilityInventoryDecoder.decode(Fixtures.bytes("facilities/nyct_ene_equipments.HANDMADE.json"))
        store.install(facilities: FacilitiesLoad(feed: feed, inventory: inventory, body: upcoming, local: store.zone), at: Self.t0)

        let service = StopSheetService(store: store, refreshers: [], connections: { 0 }, clock: store.clock)
        let registry = SubscriptionRegistry(service: service, limits: SubscriptionLimits(), counters: SubscriptionCounters())
        let loop = GenerationTests.StandInLoop()
        defer { #expect(loop.stop()) }
        store.onChange { _, new in registry.storeChanged(to: new, post: loop.run) }
        let queue = Locked<StopSheetDaemon.NotificationQueue?>(nil)
        loop.run {
            var dispatcher = Dispatcher()
            registry.register(in: &dispatcher)
            let notifications = StopSheetDaemon.NotificationQueue {}
            let context = RPCContext(peer: PeerCredentials(pid: 1, uid: 0, gid: 0), notifications: notifications)
            _ = dispatcher.reply(to: RPCRequest(id: .number("1"), method: "subscribe", params: ["stopIds": ["A41"]]), context: context)
            queue.withLock { $0 = notifications }
        }
        /// The notifications written since the last call.
        func pushed() throws -> [JSON] {
            let written = Locked<[UInt8]>([])
            loop.run { written.withLock { out in _ = queue.withLock { $0 }!.write(into: &out, outputLimit: Int.max) } }
            return try String(decoding: written.withLock { $0 }, as: UTF8.self).split(separator: "\n").map { try JSONParser.parse(String($0)) }
        }
        func sheet() throws -> JSON { try JSONParser.parse(try service.stopSheet(StopSheetQuery(stopID: "A41")).bytes) }
        func outageUnits(_ sheet: JSON) -> [String] {
            (sheet["accessibilityButton"]?["now"]?["outages"]?.arrayValue ?? []).compactMap { $0["facilityId"]?.stringValue }
        }
        #expect(try pushed().allSatisfy { $0["method"] != "stopSheetChanged" }, "subscribing pushes no change")

        let before = try sheet()
        #expect(outageUnits(before) == [], "\(before.encodedString)")
        clock.set(Self.start.adding(seconds: -1))
        #expect(!store.rebuildIfBoundaryPassed(now: clock.now), "a second early: nothing changes")
        #expect(try pushed().isEmpty)

        clock.set(Self.start)
        #expect(store.rebuildIfBoundaryPassed(now: clock.now), "the start is a boundary")
        let during = try sheet()
        #expect(outageUnits(during) == ["EL319"], "\(during.encodedString)")
        var lines = try pushed()
        #expect(lines.map { $0["method"] } == ["stopSheetChanged"] && lines.first?["params"]?["sheet"]?["accessibilityButton"] == during["accessibilityButton"],
                "\(lines.map(\.encodedString))")

        clock.set(Self.end)
        #expect(store.rebuildIfBoundaryPassed(now: clock.now), "the end is a boundary")
        let after = try sheet()
        #expect(outageUnits(after) == [] && after["accessibilityButton"] == before["accessibilityButton"], "\(after.encodedString)")
        lines = try pushed()
        #expect(lines.map { $0["method"] } == ["stopSheetChanged"] && lines.first?["params"]?["sheet"]?["accessibilityButton"] == after["accessibilityButton"],
                "\(lines.map(\.encodedString))")
        #expect(store.status(.facilities).refreshesSucceeded == 0, "no fetch: the clock alone")
    }
}
