import Foundation
import StopSheetCore
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// Issue 52's decoders against an independent reading in Python (Tests/Facilities/lift_feeds.py:
/// the json and csv modules, the issue's mapping written again): the real and hand-made FaSta and
/// IDFM fixtures, and a FaSta body of 3,500 units generated with every state word, missing and
/// out-of-range coordinates, number and string values and hostile text, read unit by unit.
@Suite struct LiftFeedsOracleTests {
    static let fixtures = ["db_fasta_motis.REAL.json", "db_fasta.HANDMADE.json", "idfm_etat_des_ascenseurs_2024-04-16_first-3-rows.REAL.csv",
                           "idfm_lifts.HANDMADE.csv", "idfm_lifts.HANDMADE.json"]

    /// Python's units of each file, by file name, in order.
    static func oracle(_ paths: [String]) throws -> [String: [[String: Any]]] {
        let run = try runProcess("/usr/bin/env", ["python3", GTFSFeeds.tests + "/Facilities/lift_feeds.py"] + paths)
        guard run.status == 0 else { throw TestFailure("lift_feeds.py: \(run.stderr)") }
        var units: [String: [[String: Any]]] = [:]
        for line in run.stdout.split(separator: "\n") {
            let unit = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            units[unit["file"] as! String, default: []].append(unit)
        }
        return units
    }

    static func compare(_ path: String, _ expected: [[String: Any]]) throws {
        let feed = try FacilitiesBody.decode(Fixtures.bytes(atPath: path), local: TestZones.rules("Europe/Paris"))
        #expect(feed.units.count == expected.count, "\(path)")
        for (unit, python) in zip(feed.units, expected) {
            let text = { (key: String) in python[key] as? String }
            #expect(unit.unitID == text("unitId") && unit.status.rawValue == text("status") && unit.location.stationRef == text("stationRef"),
                    "\(path): \(unit) against \(python)")
            #expect(unit.location.position?.latitude == text("latitude").flatMap(Double.init)
                    && unit.location.position?.longitude == text("longitude").flatMap(Double.init), "\(path): \(unit.unitID)")
            #expect(unit.serving == text("serving") && unit.description == text("description"), "\(path): \(unit.unitID)")
            // Python reads no zone: a time without an offset (the daemon's zone) is not compared.
            if let since = python["since"] as? Int { #expect(unit.since == Instant(secondsSince1970: Int64(since)), "\(path): \(unit.unitID)") }
            else if feed.format == .dbFaSta { #expect(unit.since == nil) }
        }
    }

    @Test func theFixturesReadAsPythonReadsThem() throws {
        let paths = Self.fixtures.map { Fixtures.path("facilities/" + $0) }
        let python = try Self.oracle(paths)
        let counts: [Int] = Self.fixtures.map { python[$0]?.count ?? 0 }
        #expect(counts == [9, 5, 3, 6, 3])
        for (path, name) in zip(paths, Self.fixtures) { try Self.compare(path, python[name] ?? []) }
    }

    @Test func aGeneratedFaStaBodyOfRealSizeReadsAsPythonReadsIt() throws {
        var random = SystemRandomNumberGenerator()
        let states = [#""ACTIVE""#, #""INACTIVE""#, #""UNKNOWN""#, #""inactive""#, #""""#, #""BROKEN""#, "null", "7"]
        let texts = [#""zu Gleis 1""#, #""Aufzug\u001b[31m rot\r\n""#, #""  viel   Raum ""#, #""\u202Eumgekehrt""#, "null", #""""#]
        let rows = (0..<3500).map { index -> String in
            var members = [#""equipmentnumber":\#(index % 2 == 0 ? "\(10_000_000 + index)" : "\"\(10_000_000 + index)\"")"#,
                           #""state":\#(states.randomElement(using: &random)!)"#, #""type":"ELEVATOR""#,
                           #""description":\#(texts.randomElement(using: &random)!)"#, #""stateExplanation":\#(texts.randomElement(using: &random)!)"#]
            if Bool.random(using: &random) { members.append(#""stationnumber":\#(Int.random(in: 1...7000, using: &random))"#) }
            switch Int.random(in: 0..<5, using: &random) {
            case 0: break
            case 1: members.append(#""geocoordX":13.3,"geocoordY":95.5"#)
            case 2: members.append(#""geocoordX":"8.66","geocoordY":"50.1""#)
            default: members.append(#""geocoordX":\#(Double.random(in: 5.9...15, using: &random)),"geocoordY":\#(Double.random(in: 47.3...55, using: &random))"#)
            }
            return "{" + members.shuffled(using: &random).joined(separator: ",") + "}"
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fasta-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json").path
        try Data(("[" + rows.joined(separator: ",\n") + "]").utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let python = try Self.oracle([path])
        #expect(python.values.first?.count == 3500)
        try Self.compare(path, python.values.first ?? [])
    }
}
