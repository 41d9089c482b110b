import Foundation
import StopSheetCore
import StopSheetTestSupport
import Testing

/// Which way is step-free now (issue 51), through the real binaries on WMATA's real topology
/// (Tests/Fixtures/gtfs-pathways/wmata-2026-04): Friendship Heights with one of its two elevator
/// entrances' lifts out (a hand-made body), so the platform keeps one way and loses the other.
@Suite(.serialized) struct StepFreeWaysIntegrationTests {
    static let stations = "file://\(Fixtures.directory)/gtfs-pathways/wmata-2026-04"
    static let body = "file://\(Fixtures.path("facilities/wmata_lift_friendship_heights.HANDMADE.json"))"

    static func daemon() throws -> DaemonProcess {
        try DaemonProcess(["--stations-url", stations, "--facilities-url", body, "--facilities-interval", "3600", "--stations-interval", "3600"],
                          until: FacilitiesIntegrationTests.loaded)
    }

    @Test func aPlatformKeepsOneWayAndLosesTheOther() throws {
        let daemon = try Self.daemon()
        defer { _ = daemon.stop() }
        let now = try #require(try FacilitiesIntegrationTests.now(daemon, "STN_A08"))
        #expect(now["stepFree"] == "available" && now["complete"] == true)
        let platform = try #require(now["platforms"]?.arrayValue?.first)
        #expect(platform["entry"] == true && platform["exit"] == true)
        #expect(platform["via"] == [
            ["id": "ENT_A08_S_EL", "name": "Friendship Heights - SW Corner of Wisconsin Ave. & Jenifer St. (Elevator)", "entry": true, "exit": true],
            ["id": "ENT_A08_E_EL", "name": "Friendship Heights - East Side Wisconsin Ave., NW At Western Ave. (Elevator)", "entry": false, "exit": false],
        ])
        // The rider's line (a paragraph: its wrapping aside).
        let sheet = try FacilitiesIntegrationTests.ctl(daemon, ["sheet", "STN_A08"]).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(sheet.contains("Friendship Heights, Red Line Center Platform platform: step-free from Friendship Heights - SW Corner of Wisconsin Ave. & Jenifer St. (Elevator) only; the way from Friendship Heights - East Side Wisconsin Ave., NW At Western Ave. (Elevator) is out. Elevator A08_111123 out"), "\(sheet)")
        // Tenleytown has one way: nothing to choose between, so no line.
        let tenleytown = try #require(try FacilitiesIntegrationTests.now(daemon, "STN_A07"))
        #expect(tenleytown["platforms"]?.arrayValue?.allSatisfy { $0["via"]?.arrayValue?.count == 1 } == true)
        #expect(try FacilitiesIntegrationTests.ctl(daemon, ["sheet", "STN_A07"]).contains("step-free from") == false)
    }

    /// `stationMap`: the map of a station with one, its platforms the sheet's; errors as `station`'s.
    @Test func theStationMapIsTheSheetsVerdictDrawn() throws {
        let daemon = try Self.daemon()
        defer { _ = daemon.stop() }
        let map = try daemon.result("stationMap", ["stopId": "PF_A08_C"])
        #expect(map["stationId"] == "STN_A08" && map["reason"] == nil)
        #expect(map["map"]?["platforms"] == (try FacilitiesIntegrationTests.now(daemon, "STN_A08"))?["platforms"])
        let lift = try #require(map["map"]?["pathways"]?.arrayValue?.first { $0["id"] == "A08_111123" })
        #expect(lift["out"] == [["source": "facilities", "id": "A08_111123"]] && lift["mode"] == "elevator")
        let unknown = try daemon.call("stationMap", ["stopId": "NO_SUCH_STOP"])["error"]
        #expect(unknown?["code"] == -32001)
        #expect(unknown == (try daemon.call("station", ["stopId": "NO_SUCH_STOP"]))["error"])
    }

    /// A station without a map: `map` null and why, not an error.
    @Test func aStationWithoutAMapSaysWhy() throws {
        let daemon = try DaemonProcess(["--demo"])
        defer { _ = daemon.stop() }
        let map = try daemon.result("stationMap", ["stopId": "40380"])
        #expect(map["stationId"] == "40380" && map["map"] == .null)
        #expect(map["reason"]?.stringValue?.contains("no map") == true)
    }
}
