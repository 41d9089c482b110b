import Foundation
import Glibc
import StopSheetCore
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// GTFS through the real binary: a static feed zip (real CTA stops, trips made for the test) as
/// the station source, GTFS-realtime built by an independent encoder (gtfs-realtime-bindings)
/// served by the local upstream as the alerts source. What the daemon answers over its socket is
/// compared with what the feed says (`feed.expected.json`, written by the encoder's side).
@Suite(.serialized) struct GTFSIntegrationTests {
    static let secret = "s3cret-key-for-the-test"

    struct Rig {
        let feeds: String
        let upstream: Upstream
        let daemon: DaemonProcess
        let expected: [JSON]
        let captureTrainIDs: [String]

        init(_ extra: [String] = [], stations: (String) -> String) throws {
            let now = Int64(Date().timeIntervalSince1970)
            feeds = try GTFSFeeds.realtime(now: now)
            let staticFeed = try GTFSFeeds.staticFeed()
            try FileManager.default.copyItem(atPath: staticFeed + "/feed.zip", toPath: feeds + "/static.zip")
            try FileManager.default.copyItem(atPath: GTFSFeeds.tests + "/Fixtures/gtfs_stops_2022-01.RAIL_SUBSET.txt", toPath: feeds + "/stops.txt")
            try? FileManager.default.removeItem(atPath: staticFeed)
            upstream = try Upstream(root: feeds)
            let oracle = try JSONParser.parse(try GTFSFeeds.bytes(feeds + "/feed.expected.json"))
            expected = oracle["alerts"]?.arrayValue ?? []
            captureTrainIDs = oracle["captureTrainIds"]?.arrayValue?.compactMap(\.stringValue) ?? []
            daemon = try DaemonProcess(["--alerts-url", upstream.url("/fixture/feed.pb?key=\(GTFSIntegrationTests.secret)"),
                                        "--stations-url", stations(feeds)] + extra)
        }

        func stop() {
            daemon.stop()
            upstream.stop()
            try? FileManager.default.removeItem(atPath: feeds)
        }

        /// The feed's alerts that apply to a station, by the design's rule, in feed order.
        func expectedIDs(for station: JSON) -> [String] {
            let routes = Set(station["routes"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            let stops = Set([station["stationId"]?.stringValue ?? ""] + (station["platforms"]?.arrayValue ?? []).compactMap { $0["stopId"]?.stringValue }
                + (station["entrances"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
            return expected.filter { alert in
                let scopes = alert["scopes"]?.arrayValue ?? []
                let named = scopes.filter { $0["type"] == "station" }.compactMap { $0["id"]?.stringValue }
                if !named.isEmpty { return !stops.isDisjoint(with: named) }
                // CTA's GTFS: every line is a metro (route_type 1) of the one agency, CTA.
                return scopes.contains { $0["type"] == "systemwide" || ($0["type"] == "route" && routes.contains($0["id"]?.stringValue ?? ""))
                    || $0["routeType"] == 1 || $0 == ["type": "agency", "id": "CTA"] }
            }.compactMap { $0["id"]?.stringValue }
        }
    }

    @Test func theDaemonSaysWhatTheFeedSays() throws {
        let rig = try Rig { "file://" + $0 + "/static.zip" }
        defer { rig.stop() }
        #expect(rig.expected.count > 20)

        let alerts = try rig.daemon.result("alerts")
        let served = alerts["alerts"]?.arrayValue ?? []
        #expect(served.map { $0["id"] } == rig.expected.map { $0["id"] })
        for (answer, feed) in zip(served, rig.expected) {
            for member in ["kind", "headline", "description", "start", "end", "scopes",
                           "impact", "severity", "major", "url", "category", "cause", "effect", "severityLevel"] {
                #expect(answer[member] == feed[member], "\(feed["id"]!) \(member): \(answer[member]?.encodedString ?? "nil") vs \(feed[member]?.encodedString ?? "nil")")
            }
        }
        // The capture's train alerts, re-expressed, are the ones the CTA decoder finds in the JSON.
        let cta = try AlertsDecoder.decode(GTFSFeeds.bytes(GTFSFeeds.tests + "/Fixtures/alerts_2015-02-14.DERIVED.json"), chicago: TestZones.chicago)
        #expect(cta.map(\.id) == rig.captureTrainIDs)
        #expect(served.compactMap { $0["id"]?.stringValue }.filter { !$0.hasPrefix("test-") } == rig.captureTrainIDs)

        for stopID in ["40380", "40630", "41700", "40450", "41320"] {
            let station = try rig.daemon.result("station", ["stopId": .string(stopID)])
            let sheet = try rig.daemon.result("stopSheet", ["stopId": .string(stopID)])
            let ids = rig.expectedIDs(for: station)
            #expect(Set(sheet["alerts"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []) == Set(ids), "\(stopID)")
            #expect(sheet["alertGlyph"]?["count"]?.intValue == (ids.isEmpty ? nil : ids.count), "\(stopID)")
        }
        let clarkLake = try rig.daemon.result("station", ["stopId": "40380"])
        #expect(clarkLake["routes"] == ["Blue", "Brn", "G", "Org", "P", "Pink"])
        let clarkDivision = try rig.daemon.result("station", ["stopId": "40630"])
        #expect(clarkDivision["entrances"]?.arrayValue?.count == 7)

        let health = try rig.daemon.result("health")
        #expect(health["stations"]?["note"] == .null)
        #expect(health["alerts"]?["source"]?.stringValue?.hasSuffix("feed.pb?key=REDACTED") == true)
        rig.daemon.stop()
        #expect(!rig.daemon.stderrText().contains(Self.secret))
        #expect(!health.encodedString.contains(Self.secret))
        #expect(!rig.daemon.notifications.received.joined().contains(Self.secret))
    }

    @Test func stopsTxtAloneKnowsNoLinesAndSaysSo() throws {
        let rig = try Rig { "file://" + $0 + "/stops.txt" }
        defer { rig.stop() }
        let health = try rig.daemon.result("health")
        #expect(health["stations"]?["note"] == .string(CacheStatus.linesUnknownNote))
        #expect(health["stations"]?["count"] == 141)
        let station = try rig.daemon.result("station", ["stopId": "40380"])
        #expect(station["routes"] == [])
        let sheet = try rig.daemon.result("stopSheet", ["stopId": "40380"])
        // Only what needs no lines: systemwide alerts and those naming the station.
        let ids = sheet["alerts"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(Set(ids) == ["test-rail-type-only", "test-agency-only", "test-intersection"])
        #expect(Set(ids) == Set(rig.expectedIDs(for: station)))
    }
}

extension GTFSIntegrationTests {
    @Test func languagePicksTheTranslation() throws {
        let rig = try Rig(["--language", "es"]) { "file://" + $0 + "/stops.txt" }
        defer { rig.stop() }
        let served = try rig.daemon.result("alerts")["alerts"]?.arrayValue ?? []
        let capture = served.filter { !($0["id"]?.stringValue ?? "").hasPrefix("test-") }
        #expect(capture.count == rig.captureTrainIDs.count)
        // Every capture alert has a Spanish headline (made for the test) beside CTA's English one.
        #expect(capture.allSatisfy { $0["headline"]?.stringValue?.hasPrefix("(es) prueba: ") == true })
        // A description with no Spanish falls back to the untagged one, else the first (French).
        let descriptions = Set(capture.compactMap { $0["description"]?.stringValue })
        #expect(descriptions.contains("(fr) essai"))
        // test-accessibility's URL has a Spanish translation.
        #expect(served.first { $0["id"] == "test-accessibility" }?["url"] == "https://example.org/es")
    }
}

/// Every upstream-abuse case of UpstreamAbuseIntegrationTests, for a GTFS-realtime alerts source: each bad
/// body is a failed refresh that keeps the last good (protobuf) alerts.
@Suite(.serialized) struct GTFSRealtimeAbuseIntegrationTests {
    @Test func badProtobufBodiesAreFailedRefreshesThatKeepTheLastGoodAlerts() throws {
        let rig = try UpstreamAbuseIntegrationTests.Rig()
        let feeds = try GTFSFeeds.realtime(now: Int64(Date().timeIntervalSince1970))
        defer { try? FileManager.default.removeItem(atPath: feeds) }
        let names = try FileManager.default.contentsOfDirectory(atPath: feeds).filter { $0.hasSuffix(".pb") }
        for name in names { try rig.write(name, try GTFSFeeds.bytes(feeds + "/" + name)) }
        // Garbage that starts like a FeedMessage, from a fixed generator so a failure can be rerun.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let garbage = [UInt8(0x12)] + (0..<4096).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        try rig.write("garbage.pb", garbage)
        try rig.write("html.pb", Array("<html><body>502 Bad Gateway</body></html>".utf8))
        try rig.write("empty.pb", [])

        let good = try rig.refresh("alerts", from: "feed.pb")
        #expect(good["lastError"] == .null)
        let liveAlerts = try #require(good["count"]?.intValue)
        #expect(liveAlerts > 20)
        let before = try rig.view()

        let truncations = names.filter { $0.hasPrefix("truncated-") }.sorted()
        #expect(truncations.count >= 4)
        // A cut within the first three bytes leaves too little to tell binary from text
        // (`\n$\n`): a failure all the same, worded as the text path words it.
        let tiny = ["truncated-1.pb", "truncated-2.pb", "truncated-3.pb"]
        let cases: [(file: String, reason: String)] = truncations.map { ($0, tiny.contains($0) ? "unrecognised upstream format" : "truncated at byte") } + [
            ("abuse-group.pb", "groups are not supported"),
            ("abuse-length.pb", "truncated at byte"),
            ("abuse-varint.pb", "varint longer than 10 bytes"),
            ("abuse-utf8.pb", "not UTF-8"),
            ("abuse-wire-type.pb", "wire type 0, expected 2"),
            ("abuse-million.pb", "more than the limit of 100000"),
            ("abuse-over-cap.pb", "larger than 16777216 bytes"),
            ("garbage.pb", "body is not a valid protobuf message"),
            ("html.pb", "body is not JSON"),
            ("empty.pb", "empty body"),
        ]
        try rig.expectEachAlertBodyFails(cases, keeping: liveAlerts, view: before)
        let recovered = try rig.refresh("alerts", from: "feed.pb")
        #expect(recovered["lastError"] == .null && recovered["consecutiveFailures"] == 0)
        #expect(try rig.view() == before)
    }
}
