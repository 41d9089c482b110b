import Foundation
import StopSheetCore
import StopSheetTestSupport
import Testing

/// Issue 50's independent reading: which platforms each CTA elevator alert touches at a station
/// without a map, read in Python with regular expressions (Tests/CTA/elevator_platforms.py) from
/// the same files, the real alerts body of 2026-04-26 and the HANDMADE prose alerts, compared
/// alert by alert with the daemon's verdict: the rule, the platforms, each entry and exit, the word.
@Suite struct CTAElevatorPlatformsOracleTests {
    @Test func everyElevatorAlertMatchesTheIndependentReading() throws {
        let files = ["alerts_2026-04-26.json", "alerts_elevator_prose.HANDMADE.json"]
        let made = try runProcess("/usr/bin/env", ["python3", GTFSFeeds.tests + "/CTA/elevator_platforms.py", Fixtures.path("L_stops_2021.csv")]
                                  + files.map(Fixtures.path))
        guard made.status == 0 else { throw TestFailure("elevator_platforms.py failed: \(made.stderr)") }
        let oracle = try #require(try JSONParser.parse(made.stdout).objectValue)
        let stations = StationDirectory(platforms: try StationsDecoder.decode(Fixtures.bytes("L_stops_2021.csv")))
        let at = TestZones.chicago.instant(.init(year: 2026, month: 4, day: 26, hour: 10, minute: 56))
        var compared = 0
        for file in files {
            for alert in try AlertsDecoder.decode(Fixtures.bytes(file), chicago: TestZones.chicago) where AlertOutage(alert)?.facility == .elevator {
                let expected = try #require(oracle[alert.id], "\(alert.id) is in the oracle's reading")
                let stationID = try #require(expected["station"]?.stringValue)
                let station = try #require(stations.station(for: stationID))
                let now = StepFreeNow(station: station, topology: nil, applying: [alert], now: at)
                let outage = try #require(now.outages.first)
                #expect(outage.placedBy.map { JSON.string($0.rawValue) } ?? .null == expected["rule"], "\(alert.id)")
                let platforms = expected["platforms"]?.arrayValue?.compactMap(\.stringValue) ?? []
                #expect(outage.platforms.sorted() == platforms.sorted(), "\(alert.id)")
                for platform in now.platforms {
                    let values = try #require(expected["values"]?[platform.stopID]?.arrayValue, "\(alert.id) \(platform.stopID)")
                    #expect([platform.entry, platform.exit].map { $0.map(JSON.bool) ?? .null } == values, "\(alert.id) \(platform.stopID)")
                }
                #expect(expected["stepFree"] == .string(now.stepFree.rawValue), "\(alert.id)")
                compared += 1
            }
        }
        // The six real alerts and the eleven hand-made ones, each one compared.
        #expect(compared == 17 && oracle.members.count == 17)
    }
}
