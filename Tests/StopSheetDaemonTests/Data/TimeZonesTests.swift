import StopSheetCore
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// The one choice of the zone shown: --time-zone, else the zone the data names (a station
/// feed's agency_timezone, Chicago for CTA's own formats), else none: UTC written with `Z`.
@Suite struct TimeZonesTests {
    let newYork = TestZones.rules("America/New_York")

    @Test func theFlagWinsOverTheData() throws {
        let zones = try TimeZones(configured: newYork)
        #expect(zones.shown(data: "Europe/London", current: nil) == newYork)
        #expect(zones.shown(data: nil, current: nil) == newYork)
        #expect(zones.chicago == TestZones.chicago, "CTA's timestamps are still read as Chicago's")
    }

    @Test func withoutTheFlagTheDatasZoneElseNone() {
        let zones = TimeZones.cta
        #expect(zones.shown(data: "Europe/London", current: nil) == TestZones.rules("Europe/London"))
        #expect(zones.shown(data: "America/Chicago", current: nil) == TestZones.chicago)
        #expect(zones.shown(data: "Europe/London", current: newYork).identifier == "Europe/London", "a new data zone replaces the current one")
        let none = zones.shown(data: nil, current: TestZones.chicago)
        #expect(none == .notKnown && none.name == nil, "no data zone: none claimed, Chicago's least of all")
    }

    @Test func aDataZoneTheDatabaseLacksIsNoZone() {
        #expect(TimeZones.cta.shown(data: "Mars/Olympus_Mons", current: nil) == .notKnown)
        #expect(TimeZones.cta.shown(data: "../../etc/passwd", current: nil) == .notKnown)
    }

    /// UTC written with `Z` while no zone is known; a configured UTC keeps its offset form.
    @Test func noZoneIsUTCWrittenWithZ() {
        let instant = TestZones.chicago.instant(WallClock(year: 2015, month: 2, day: 14, hour: 14, minute: 35))
        #expect(TimeZoneRules.notKnown.iso8601(instant) == "2015-02-14T20:35:00Z")
        #expect(TestZones.rules("UTC").iso8601(instant) == "2015-02-14T20:35:00+00:00")
        #expect(TimeZones.journal(.notKnown).fields.isEmpty, "the journal claims no zone")
        #expect(TimeZones.journal(TestZones.chicago).fields.map(\.1) == ["America/Chicago"])
    }

    /// The store's zone before and after a load: none, then the one the data names.
    @Test func theStoresZoneIsNoneUntilTheDataNamesOne() throws {
        let now = Instant(secondsSince1970: 1_790_000_000)
        let store = Store(alertsSource: "a", stationsSource: "s", clock: .fixed(now), zones: .cta)
        #expect(store.zone == .notKnown)
        // GTFS-realtime alerts name no zone.
        store.install(alerts: DecodedAlerts(alerts: [], producedAt: now), at: now)
        #expect(store.zone == .notKnown)
        // CTA's alert formats are Chicago's.
        store.install(alerts: DecodedAlerts(alerts: [], timeZone: CTATime.zoneIdentifier), at: now)
        #expect(store.zone.name == "America/Chicago")
        // A station feed's agency_timezone wins over the alert feed's.
        let london = Agency(id: nil, name: "LU", timeZone: "Europe/London")
        let platform = Platform(stopID: "1", stationID: "S", stationName: "Bank", routes: [], stepFree: nil)
        store.install(stations: StationDirectory(platforms: [platform], agencies: [london]), at: now)
        #expect(store.zone.name == "Europe/London")
        // Stations that name no agency: back to the alert feed's.
        store.install(stations: StationDirectory(platforms: [platform], agencies: []), at: now)
        #expect(store.zone.name == "America/Chicago")
    }

    /// A reload that sets `--time-zone` shows every time in it at once (the snapshot encoded
    /// again); one that changes only a limit keeps the zone.
    @Test func aReloadedTimeZoneIsShownAtOnce() throws {
        let now = Instant(secondsSince1970: 1_790_000_000)
        let store = Store(alertsSource: "a", stationsSource: "s", clock: .fixed(now), zones: .cta)
        store.install(alerts: DecodedAlerts(alerts: [], timeZone: CTATime.zoneIdentifier), at: now)
        #expect(store.zone.name == "America/Chicago")
        let berlin = try TimeZones(configured: TestZones.rules("Europe/Berlin"))
        store.reconfigure(sources: [:], staleAfterSeconds: [:], zones: berlin)
        #expect(store.zone.name == "Europe/Berlin" && store.zones == berlin)
        store.reconfigure(sources: [:], staleAfterSeconds: [.alerts: 60], zones: berlin)
        #expect(store.zone.name == "Europe/Berlin" && store.status(.alerts).staleAfterSeconds == 60)
        store.reconfigure(sources: [:], staleAfterSeconds: [:], zones: .cta)
        #expect(store.zone.name == "America/Chicago")
    }
}
