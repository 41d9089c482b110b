import StopSheetCore
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// The one choice of the zone shown: --time-zone, else the station feed's agency_timezone,
/// else CTA's America/Chicago.
@Suite struct TimeZonesTests {
    let newYork = TestZones.rules("America/New_York")

    @Test func theFlagWinsOverTheFeed() throws {
        let zones = try TimeZones(configured: newYork)
        #expect(zones.shown(feed: "Europe/London", current: nil) == newYork)
        #expect(zones.shown(feed: nil, current: nil) == newYork)
        #expect(zones.chicago == TestZones.chicago, "CTA's timestamps are still read as Chicago's")
    }

    @Test func withoutTheFlagTheFeedsZoneThenChicago() {
        let zones = TimeZones.cta
        #expect(zones.shown(feed: "Europe/London", current: nil) == TestZones.rules("Europe/London"))
        #expect(zones.shown(feed: nil, current: nil) == TestZones.chicago)
        #expect(zones.shown(feed: "America/Chicago", current: nil) == TestZones.chicago)
        #expect(zones.shown(feed: "Europe/London", current: newYork).identifier == "Europe/London", "a new feed zone replaces the current one")
    }

    @Test func aFeedZoneTheDatabaseLacksFallsBackToChicago() {
        #expect(TimeZones.cta.shown(feed: "Mars/Olympus_Mons", current: nil) == TestZones.chicago)
        #expect(TimeZones.cta.shown(feed: "../../etc/passwd", current: nil) == TestZones.chicago)
    }
}
