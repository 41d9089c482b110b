import Foundation
import StopSheetCore
import StopSheetTestSupport
import Testing

/// Every lift accounted for, through the real binaries on WMATA's real topology
/// (Tests/Fixtures/gtfs-pathways/wmata-2026-04) and the hand-made body of the issue's cases:
/// `facilities` gives each unit its placement, `health.facilities.placement` and the journal
/// count them, and `stopsheetctl facilities --unplaced` prints inventory CSV rows that, edited
/// and loaded as `--facilities-inventory-url`, place the units (the round trip). Two daemons,
/// about 4 s; the CSV test another 4.
@Suite(.serialized) struct WMATALiftsIntegrationTests {
    static let stations = "file://\(Fixtures.directory)/gtfs-pathways/wmata-2026-04"
    static let body = "file://\(Fixtures.path("facilities/wmata_lifts.HANDMADE.json"))"

    static func daemon(_ extra: [String] = []) throws -> DaemonProcess {
        try DaemonProcess(["--stations-url", stations, "--facilities-url", body, "--log-level", "info",
                           "--facilities-interval", "3600", "--stations-interval", "3600"] + extra,
                          until: FacilitiesIntegrationTests.loaded)
    }

    static func units(_ daemon: DaemonProcess) throws -> [String: JSON] {
        let units = try #require(try daemon.result("facilities")["units"]?.arrayValue)
        return Dictionary(units.compactMap { unit in unit["unitId"]?.stringValue.map { ($0, unit) } }, uniquingKeysWith: { first, _ in first })
    }

    @Test func everyUnitIsAccountedForAndTheUnplacedListPlacesThem() throws {
        let daemon = try Self.daemon()
        defer { _ = daemon.stop() }
        let units = try Self.units(daemon)
        #expect(units.count == 8)
        #expect(units["A07X01"]?["placedBy"] == "levels" && units["A07X01"]?["pathways"] == ["A07_110126"])
        #expect(units["A07X01"]?["unplaced"] == nil && units["A07X01"]?["candidates"] == nil)
        #expect(units["A01E06"]?["stationId"] == "STN_A01_C01" && units["A01E06"]?["unplaced"] == "ambiguous")
        #expect(units["A15X03"]?["unplaced"] == "offTheMap" && units["A15X03"]?["candidates"] == nil)
        #expect(units["A03X02"]?["unplaced"] == "ambiguous" && units["A03X02"]?["candidates"] == ["A03_106120", "A03_106123"])
        #expect(units["B07X01"]?["unplaced"] == "noRuleMatched" && units["B07X01"]?["candidates"] == ["B07_125120"])
        #expect(units["Z99X01"]?["unplaced"] == "noSuchStation" && units["Z99X01"]?["stationId"] == "")
        let placement = try daemon.result("health")["facilities"]?["placement"]
        #expect(placement == ["placed": 2, "offTheMap": 2, "ambiguous": 2, "unplaced": 2])

        // The sheet: never "available" on a guess; the spec's sentence as it was.
        let now = try FacilitiesIntegrationTests.now(daemon, "STN_A03")
        #expect(now?["stepFree"] == "unknown" && now?["complete"] == false)
        let sheet = try FacilitiesIntegrationTests.ctl(daemon, ["sheet", "STN_A03"])
        #expect(sheet.contains("Step-free access is available at Dupont Circle."), "\(sheet)")
        #expect(sheet.contains("lift A03X02 could be either of 2 elevators between its two levels; a platform that needs one of them is not said"), "\(sheet)")
        // Metro Center by its second code; its escalator, one of eight, is listed but is no reason.
        let metroCenter = try FacilitiesIntegrationTests.ctl(daemon, ["sheet", "STN_A01_C01"])
        #expect(metroCenter.contains("Metro Center, Red Line Track 1 Platform platform: no step-free entry or exit (Elevator C01X01 out)\n"), "\(metroCenter)")
        #expect(metroCenter.contains("    Escalator A01E06 out: Escalator between street and mezzanine, 12th and F St: Modernization;"), "\(metroCenter)")
        let garage = try FacilitiesIntegrationTests.ctl(daemon, ["sheet", "STN_A15"])
        #expect(garage.contains("Step-free now: available (from the station's pathways); lift A15X03 is off the station's map"), "\(garage)")

        // What a deployer must map, as inventory rows: one per candidate pathway.
        let rows = try FacilitiesIntegrationTests.ctl(daemon, ["facilities", "--unplaced"]).split(separator: "\n").map(String.init)
        #expect(rows.first == "facility_id,stop_id,pathway_id")
        let expected = ["facility_id,stop_id,pathway_id"] + units.values.sorted { ($0["unitId"]?.stringValue ?? "") < ($1["unitId"]?.stringValue ?? "") }
            .filter { $0["unplaced"] != nil }
            .flatMap { unit -> [String] in
                let id = unit["unitId"]?.stringValue ?? "", station = unit["stationId"]?.stringValue ?? ""
                let candidates = unit["candidates"]?.arrayValue?.compactMap(\.stringValue) ?? []
                return (candidates.isEmpty ? [""] : candidates).map { "\(id),\(station),\($0)" }
            }
        #expect(rows == expected, "\(rows)")
        #expect(rows.contains("A03X02,STN_A03,A03_106123") && rows.contains("A15X03,STN_A15,") && rows.contains("Z99X01,,"))
        let log = daemon.stderrText()
        #expect(log.components(separatedBy: "STOPSHEET_EVENT=facility_placement").count == 2, "\(log.suffix(3000))")
        #expect(log.contains("facilities: lift units 2 placed, 2 off the map, 2 ambiguous, 2 unplaced"), "\(log.suffix(3000))")

        // The deployer keeps the row of the right lift of each unit that has candidates and
        // loads the file: each is placed on it.
        var kept: Set<String> = []
        let edited = rows.filter { row in
            let fields = row.split(separator: ",", omittingEmptySubsequences: false)
            return row == rows.first || (fields.count == 3 && !fields[2].isEmpty && kept.insert(String(fields[0])).inserted)
        }
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try (edited.joined(separator: "\n") + "\n").write(toFile: directory + "/inventory.csv", atomically: true, encoding: .utf8)
        let mapped = try Self.daemon(["--facilities-inventory-url", "file://\(directory)/inventory.csv"])
        defer { _ = mapped.stop() }
        let placed = try Self.units(mapped)
        for row in edited.dropFirst() {
            let fields = row.split(separator: ",").map(String.init)
            #expect(placed[fields[0]]?["placedBy"] == "inventory" && placed[fields[0]]?["pathways"] == .array([.string(fields[2])]), "\(row)")
        }
        #expect(try mapped.result("health")["facilities"]?["placement"] == ["placed": 5, "offTheMap": 2, "ambiguous": 0, "unplaced": 1])
        // Dupont Circle with the kept elevator out, as the independent reading says.
        let oracle = try runProcess("/usr/bin/env", ["python3", GTFSFeeds.tests + "/GTFS/wmata_lifts.py", Fixtures.path("gtfs-pathways/wmata-2026-04"),
                                                     "--access", "STN_A03", "A03_106120"])
        let access = try JSONParser.parse(Array(oracle.stdout.utf8))
        let dupont = try FacilitiesIntegrationTests.now(mapped, "STN_A03")
        #expect(dupont?["complete"] == true && dupont?["stepFree"] == "partial")
        #expect(dupont?["platforms"]?.arrayValue?.map { JSON.object(JSONObject([("stopId", $0["stopId"] ?? .null), ("entry", $0["entry"] ?? .null),
                                                                                ("exit", $0["exit"] ?? .null)])) } == access.arrayValue)
    }

    /// A unit id with a comma and a quote (upstream's text) prints as one CSV field, as Python's
    /// csv module reads it, and loads back as the same id.
    @Test func theRowsAreCSVWhateverTheIDs() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let id = #"X,"1"#
        let body: JSON = ["ElevatorIncidents": [["UnitName": .string(id), "UnitType": "ELEVATOR", "StationCode": "A03",
                                                 "LocationDescription": "Elevator between mezzanine and platform"]]]
        try body.encodedString.write(toFile: directory + "/body.json", atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--stations-url", Self.stations, "--facilities-url", "file://\(directory)/body.json"],
                                       until: FacilitiesIntegrationTests.loaded)
        defer { _ = daemon.stop() }
        let printed = try FacilitiesIntegrationTests.ctl(daemon, ["facilities", "--unplaced"])
        try printed.write(toFile: directory + "/rows.csv", atomically: true, encoding: .utf8)
        let read = try runProcess("/usr/bin/env", ["python3", "-c", "import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='')))))",
                                                   directory + "/rows.csv"])
        let rows = try JSONParser.parse(Array(read.stdout.utf8))
        #expect(rows == [["facility_id", "stop_id", "pathway_id"], [.string(id), "STN_A03", "A03_106120"], [.string(id), "STN_A03", "A03_106123"]],
                "\(printed)")
        // Kept and loaded, the row places the unit under the same id.
        let kept = printed.split(separator: "\n").prefix(2).joined(separator: "\n") + "\n"
        try kept.write(toFile: directory + "/inventory.csv", atomically: true, encoding: .utf8)
        let mapped = try DaemonProcess(["--stations-url", Self.stations, "--facilities-url", "file://\(directory)/body.json",
                                        "--facilities-inventory-url", "file://\(directory)/inventory.csv"], until: FacilitiesIntegrationTests.loaded)
        defer { _ = mapped.stop() }
        let unit = try mapped.result("facilities")["units"]?.arrayValue?.first
        #expect(unit?["unitId"] == .string(id) && unit?["placedBy"] == "inventory" && unit?["pathways"] == ["A03_106120"])
    }
}
