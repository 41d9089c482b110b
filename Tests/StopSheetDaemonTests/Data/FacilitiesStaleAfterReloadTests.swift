import StopSheetCore
import StopSheetProtocol
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// A reload that changes `--facilities-stale-after` takes effect on the answers at once, both
/// ways: lift status older than the new limit counts as unknown, and a longer limit makes it
/// count again (Store.reconfigure rebuilds the snapshot; no fetch, no tick).
@Suite struct FacilitiesStaleAfterReloadTests {
    /// NYCT's hand-made lift status and inventory loaded at `UpcomingOutageTests.t0` on a clock
    /// standing there, with `staleAfter` seconds allowed, and a service reading them.
    static func loaded(staleAfter: Int64, alertsSource: String? = nil) throws -> (clock: ManualClock, store: Store, service: StopSheetService) {
        let clock = ManualClock(UpcomingOutageTests.t0)
        let store = Store(alertsSource: alertsSource, stationsSource: "test:stations", facilitiesSource: "test:facilities", clock: clock.clock, zones: .cta)
        store.reconfigure(sources: [:], staleAfterSeconds: [.facilities: staleAfter], zones: store.current.zones)
        store.install(stations: StationDirectory(platforms: try GTFSStopsDecoder.decode(Fixtures.bytes("facilities/gtfs/stops.txt")).platforms,
                                                 agencies: [Agency(id: "MTA", name: "MTA", timeZone: "America/New_York")]), at: clock.now)
        let body = Fixtures.bytes("facilities/nyct_ene.HANDMADE.json")
        let (inventory, _) = try FacilityInventoryDecoder.decode(Fixtures.bytes("facilities/nyct_ene_equipments.HANDMADE.json"))
        store.install(facilities: FacilitiesLoad(feed: try FacilitiesBody.decode(body, local: store.zone), inventory: inventory, body: body,
                                                 local: store.zone), at: clock.now)
        return (clock, store, StopSheetService(store: store, refreshers: [], connections: { 0 }, clock: store.clock))
    }

    @Test func aNewLimitTurnsTheSameStatusUnknownAndBack() throws {
        let (clock, store, service) = try Self.loaded(staleAfter: 86_400)
        /// The sheet's step-free now, and the status of each lift it names.
        func now() throws -> (now: JSON?, statuses: [String]) {
            let now = try JSONParser.parse(try service.stopSheet(StopSheetQuery(stopID: "A41")).bytes)["accessibilityButton"]?["now"]
            return (now, (now?["outages"]?.arrayValue ?? []).compactMap { $0["status"]?.stringValue })
        }
        // Half an hour after the load (and before the feed's upcoming outage starts: only the
        // limit changes what is said).
        clock.set(UpcomingOutageTests.t0.adding(seconds: 1_800))
        let fresh = try now()
        #expect(!fresh.statuses.isEmpty && !fresh.statuses.contains("unknown"), "\(fresh.now?.encodedString ?? "")")

        store.reconfigure(sources: [:], staleAfterSeconds: [.facilities: 600], zones: store.current.zones)
        let stale = try now()
        #expect(!stale.statuses.isEmpty && stale.statuses.allSatisfy { $0 == "unknown" }, "half an hour old, ten minutes allowed: \(stale.now?.encodedString ?? "")")
        store.reconfigure(sources: [:], staleAfterSeconds: [.facilities: 86_400], zones: store.current.zones)
        #expect(try now().now == fresh.now, "a day allowed again")
    }

    /// A 304 of the lift-status URL makes stale lift status fresh again (the same units, as
    /// reported); a 304 of another cache does not touch it.
    @Test func aNotModifiedLiftStatusIsFreshAgain() throws {
        let (clock, store, service) = try Self.loaded(staleAfter: 600, alertsSource: "test:alerts")
        func statuses() throws -> [String] {
            let now = try JSONParser.parse(try service.stopSheet(StopSheetQuery(stopID: "A41")).bytes)["accessibilityButton"]?["now"]
            return (now?["outages"]?.arrayValue ?? []).compactMap { $0["status"]?.stringValue }
        }
        let fresh = try statuses()
        #expect(!fresh.isEmpty && !fresh.contains("unknown"))
        // Half an hour on, ten minutes allowed: stale once the snapshot is built again.
        clock.set(UpcomingOutageTests.t0.adding(seconds: 1_800))
        store.rebuildIfBoundaryPassed(now: clock.now)
        let stale = try statuses()
        #expect(!stale.isEmpty && stale.allSatisfy { $0 == "unknown" }, "\(stale)")
        store.commit(.alerts, at: clock.now) { $0.loaded = true; $0.loadedAt = clock.now }
        store.commit(.stations, at: clock.now) { $0.loadedAt = clock.now }
        #expect(try statuses() == stale, "another cache's 304")
        store.commit(.facilities, at: clock.now) { $0.loadedAt = clock.now }
        #expect(try statuses() == fresh, "the lift status's own 304")
    }
}
