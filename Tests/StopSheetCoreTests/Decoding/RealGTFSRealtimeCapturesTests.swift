import StopSheetCore
import StopSheetTestSupport
import Testing

/// Real GTFS-realtime captures of other agencies (`Tests/Fixtures/gtfs-realtime/`), decoded as
/// they are: route ids kept as each agency spells them, every rail mode kept, buses dropped.
@Suite struct RealGTFSRealtimeCapturesTests {
    @Test func mbtaLightRailAndCommuterRailAreTrainsAndBusesAreNot() throws {
        let alerts = try AlertsDecoder.decode(Fixtures.bytes("gtfs-realtime/mbta-2017-12-23_alerts.pb"), chicago: TestZones.chicago)
        let routes = Set(alerts.flatMap(\.scopes).compactMap { scope -> String? in
            if case .route(let route) = scope { return route.rawValue }
            return nil
        })
        // Route-wide commuter rail alerts, MBTA's spellings; no bus route survives (all are route_type 3).
        #expect(routes.isSuperset(of: ["CR-Fairmount", "CR-Fitchburg", "CR-Middleborough"]), "\(routes.sorted())")
        #expect(routes.allSatisfy { $0.hasPrefix("CR-") || ["Red", "Orange"].contains($0) || $0.hasPrefix("Green-") }, "\(routes.sorted())")
        // The Green Line's light-rail platforms are named.
        #expect(alerts.contains { $0.scopes.contains(.station("70205")) })
        #expect(alerts.contains { $0.scopes.contains(.station("Braintree")) })
        #expect(!alerts.contains { $0.scopes.contains(.station("1486")) })
    }

    @Test func pugetSoundAgenciesAloneNameTheirAgency() throws {
        let alerts = try AlertsDecoder.decode(Fixtures.bytes("gtfs-realtime/puget-sound-2018-10-12_alerts.pb"), chicago: TestZones.chicago)
        #expect(alerts.count == 20)
        let scopes = Set(alerts.flatMap(\.scopes))
        #expect(!scopes.isEmpty)
        #expect(scopes.allSatisfy { if case .agency = $0 { return true } else { return false } }, "\(scopes)")
        #expect(scopes.count == 2, "\(scopes)")
    }

    /// The capture's own `header.timestamp` (1514034019, as the reference's text dump of the same
    /// bytes gives it) is the data's time of making; GTFS-realtime names no zone.
    @Test func mbtaHeaderTimestampIsWhenTheFeedWasMade() throws {
        let feed = try AlertsDecoder.decodeFeed(Fixtures.bytes("gtfs-realtime/mbta-2017-12-23_alerts.pb"), chicago: TestZones.chicago)
        #expect(feed.producedAt == Instant(secondsSince1970: 1_514_034_019))
        #expect(feed.timeZone == nil)
        #expect(feed.alerts == (try AlertsDecoder.decode(Fixtures.bytes("gtfs-realtime/mbta-2017-12-23_alerts.pb"), chicago: TestZones.chicago)))
        // Two years on, a load a second old is stale: the feed says it was made long before.
        let now = Instant(secondsSince1970: 1_514_034_019 + 2 * 365 * 86_400)
        let freshness = DataFreshness(lastGoodLoad: now.adding(seconds: -1), producedAt: feed.producedAt, now: now, staleAfterSeconds: 600)
        #expect(freshness.ageSeconds == 1 && freshness.stale)
    }
}
