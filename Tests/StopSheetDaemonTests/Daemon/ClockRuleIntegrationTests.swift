import Foundation
import StopSheetCore
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// Kinds follow the clock: a CTA alert turns Active when its start passes and disappears when its
/// end passes, without a refresh. The daemon's STATUS= is the signal that the moment came.
@Suite struct ClockRuleIntegrationTests {
    static func ctaAlert(_ id: String, _ headline: String, start: Instant, end: Instant?, service: String) -> String {
        let endText = end.map { "\"\(TestZones.chicago.wallClock($0).iso8601)\"" } ?? "null"
        return """
            {"AlertId":"\(id)","Headline":"\(headline)","ShortDescription":"\(headline).","FullDescription":{"#cdata-section":"<p>x</p>"},
             "SeverityScore":"10","SeverityCSS":"normal","Impact":"Special Note","EventStart":"\(TestZones.chicago.wallClock(start).iso8601)","EventEnd":\(endText),
             "TBD":"0","MajorAlert":"0","ImpactedService":{"Service":\(service)}}
            """
    }

    static func document(_ alerts: [String]) -> String {
        #"{"CTAAlerts":{"TimeStamp":"2026-01-01T00:00:00","ErrorCode":"0","ErrorMessage":null,"Alert":["# + alerts.joined(separator: ",") + "]}}"
    }

    @Test func alertsStartAndEndWithTheClock() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/alerts.json"
        // The daemon's clock is pinned (`--now`), so the alerts are written before it starts, in
        // its time, with no wall-clock arithmetic: only the seconds of the run itself go by.
        let now = TestZones.chicago.instant(.init(year: 2026, month: 1, day: 1, hour: 12))
        let start = now.adding(seconds: 5)
        let always = Self.ctaAlert("1", "Always", start: now.adding(seconds: -3600), end: nil, service: #"{"ServiceType":"X","ServiceId":"Systemwide"}"#)
        let soon = Self.ctaAlert("2", "Soon", start: start, end: start.adding(seconds: 2), service: #"[{"ServiceType":"T","ServiceId":"40380"},{"ServiceType":"R","ServiceId":"Blue"}]"#)
        try Self.document([always, soon]).write(toFile: file, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--alerts-url", "file://\(file)", "--stations-url", "file://\(Fixtures.directory)/L_stops_2021.csv",
                                        "--now", TestZones.chicago.iso8601(now)])
        func kinds() throws -> [String: String] {
            let alerts = try daemon.result("alerts", ["stopId": "40380"])["alerts"]?.arrayValue ?? []
            return Dictionary(uniqueKeysWithValues: alerts.map { ($0["headline"]!.stringValue!, $0["kind"]!.stringValue!) })
        }
        #expect(try kinds() == ["Always": "active", "Soon": "planned"])
        let clock = try #require(try daemon.result("health")["clock"]?["now"]?.stringValue.flatMap { ISO8601Time.instant($0, localTime: TestZones.chicago) })
        #expect(clock < start, "the daemon's first answers came within 5 s of its start")

        try daemon.waitForStatus { $0.contains("2 train alerts (2 active, 0 planned)") }
        #expect(try kinds() == ["Always": "active", "Soon": "active"])
        #expect(try daemon.result("stopSheet", ["stopId": "40380"])["alertGlyph"]?["count"] == 2)
        #expect(try daemon.result("stopSheet", ["stopId": "40040"])["alertGlyph"]?["count"] == 1, "the station alert stays at its station")

        try daemon.waitForStatus { $0.contains("1 train alerts (1 active, 0 planned)") }
        #expect(try kinds() == ["Always": "active"])
        let sheet = try daemon.result("stopSheet", ["stopId": "40380"])
        #expect(sheet["alertGlyph"]?["accessibilityLabel"] == "1 train service alert")
        #expect(sheet["alertGlyph"]?["alert"]?["message"] == "Active train alert: Always\nAlways.")
        #expect(try daemon.result("health")["alerts"]?["consecutiveFailures"] == 0)
    }
}
