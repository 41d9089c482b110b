import StopSheetCore
import StopSheetProtocol
import Testing
@testable import StopSheetClient

/// The client's wait (`StopSheetClient.waitUntilLoaded`, `stopsheetctl wait`) decided from a
/// `health` answer, without a daemon: which caches it still waits for, the line it gives up with,
/// and its at-once answer for a cache the daemon has no source for. The answers are written here
/// as a daemon sends them (protocol.md, `health`); WaitIntegrationTests runs the wait against
/// the real daemon.
@Suite struct WaitUntilLoadedTests {
    /// One cache's `health` entry.
    static func cache(loaded: Bool, configured: Bool = true, source: String?, lastError: String? = nil) -> String {
        func text(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "null" }
        return """
            {"loaded":\(loaded),"count":\(loaded ? 3 : 0),"loadedAt":null,"lastAttemptAt":null,"lastError":\(text(lastError)),\
            "source":\(text(source)),"consecutiveFailures":\(lastError == nil ? 0 : 2),"nextRefreshAt":null,"lastHTTPStatus":null,\
            "ageSeconds":null,"stale":false,"note":null,"producedAt":null,"configured":\(configured)}
            """
    }

    static func health(alerts: String, stations: String) throws -> Reply<Answer.Health> {
        try Reply(try JSONParser.parse("""
            {"status":"starting","alerts":\(alerts),"stations":\(stations),"uptimeSeconds":4,"connections":1,"version":"1.0.0",\
            "agencies":[],"timeZone":null,"clock":{"now":"2026-03-02T08:00:00-06:00","pinned":true}}
            """), of: "health")
    }

    static let alertsURL = "https://alerts.example/feed.json"
    static let stopsURL = "file:///srv/transit/stops.csv"

    static func pending(_ health: Reply<Answer.Health>, _ target: LoadTarget) -> [String] {
        StopSheetClient.pending(health, target).map(\.name)
    }

    @Test func theCachesStillAwaitedAreThoseConfiguredAndNotLoaded() throws {
        let neither = try Self.health(alerts: Self.cache(loaded: false, source: Self.alertsURL), stations: Self.cache(loaded: false, source: Self.stopsURL))
        #expect(Self.pending(neither, .all) == ["alerts", "stations"])
        #expect(Self.pending(neither, .alerts) == ["alerts"])
        #expect(Self.pending(neither, .stations) == ["stations"])
        let alertsLoaded = try Self.health(alerts: Self.cache(loaded: true, source: Self.alertsURL), stations: Self.cache(loaded: false, source: Self.stopsURL))
        #expect(Self.pending(alertsLoaded, .all) == ["stations"])
        #expect(Self.pending(alertsLoaded, .alerts) == [])
        // A cache without a source is not awaited by `all`: it never loads.
        let stationsOnly = try Self.health(alerts: Self.cache(loaded: false, configured: false, source: nil),
                                           stations: Self.cache(loaded: false, source: Self.stopsURL))
        #expect(Self.pending(stationsOnly, .all) == ["stations"])
        let both = try Self.health(alerts: Self.cache(loaded: true, source: Self.alertsURL), stations: Self.cache(loaded: true, source: Self.stopsURL))
        #expect(Self.pending(both, .all) == [])
    }

    @Test func aCacheWithoutASourceIsAnsweredAtOnce() throws {
        let stationsOnly = try Self.health(alerts: Self.cache(loaded: false, configured: false, source: nil),
                                           stations: Self.cache(loaded: false, source: Self.stopsURL))
        #expect(StopSheetClient.neverLoads(stationsOnly, .alerts) == "alerts is not configured: the daemon has no --alerts-url, so it never loads")
        #expect(StopSheetClient.neverLoads(stationsOnly, .stations) == nil)
        #expect(StopSheetClient.neverLoads(stationsOnly, .all) == nil)
        let alertsOnly = try Self.health(alerts: Self.cache(loaded: false, source: Self.alertsURL),
                                         stations: Self.cache(loaded: false, configured: false, source: nil))
        #expect(StopSheetClient.neverLoads(alertsOnly, .stations) == "stations is not configured: the daemon has no --stations-url, so it never loads")
        #expect(StopSheetClient.neverLoads(alertsOnly, .alerts) == nil)
    }

    @Test func theLineNamesEveryCacheStillAwaited() throws {
        let health = try Self.health(alerts: Self.cache(loaded: false, source: Self.alertsURL, lastError: "HTTP 503 Service Unavailable"),
                                     stations: Self.cache(loaded: false, source: Self.stopsURL))
        #expect(StopSheetClient.waiting(for: StopSheetClient.pending(health, .all), after: .seconds(5))
            == "still waiting after 5 s for alerts from https://alerts.example/feed.json (last error: HTTP 503 Service Unavailable)"
            + " and stations from file:///srv/transit/stops.csv (no error yet: the first fetch is under way)")
        #expect(StopSheetClient.waiting(for: StopSheetClient.pending(health, .stations), after: .milliseconds(2500))
            == "still waiting after 2.5 s for stations from file:///srv/transit/stops.csv (no error yet: the first fetch is under way)")
    }

    @Test func allIsBothCaches() {
        #expect(LoadTarget.all.caches.map(\.name) == ["alerts", "stations", "facilities"])
        #expect(LoadTarget.facilities.caches.map(\.name) == ["facilities"])
        #expect(LoadTarget.alerts.caches.map(\.name) == ["alerts"])
        #expect(LoadTarget.stations.caches.map(\.name) == ["stations"])
    }
}
