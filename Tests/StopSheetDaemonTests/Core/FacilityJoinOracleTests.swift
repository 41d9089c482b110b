import Foundation
import StopSheetCore
import StopSheetTestSupport
import Testing

/// Issue 52's two joins against an independent reading in Python (Tests/GTFS/facility_joins.py):
/// over WMATA's real `stops.txt` (Tests/Fixtures/gtfs-pathways/wmata-2026-04: 98 stations, 2,175
/// stops with coordinates), the script makes 3,000 units (seeded) with station references, some
/// in the station table it writes (one reference to two stations, rows naming no stop) and some
/// not, and positions near a station, between two, far from any, or none; and says, by brute
/// force over every stop with its own haversine, where each is. The daemon's decoders read the
/// same stops and table, its join (the latitude index, not every pair) places the same units.
@Suite struct FacilityJoinOracleTests {
    static let stops = GTFSFeeds.tests + "/Fixtures/gtfs-pathways/wmata-2026-04/stops.txt"

    /// Three radii: the default, a narrow one (more units at none), a wide one (more ties).
    @Test func everyUnitIsWhereTheIndependentReadingSays() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let radii = [300, 120, 1500]
        let run = try runProcess("/usr/bin/env", ["python3", GTFSFeeds.tests + "/GTFS/facility_joins.py", Self.stops, directory,
                                                  "--units", "3000", "--radius", radii.map(String.init).joined(separator: ",")])
        guard run.status == 0 else { throw TestFailure("facility_joins.py failed: \(run.stderr.suffix(2000))") }
        let stations = StationDirectory(try GTFSStopsDecoder.decode(try GTFSFeeds.bytes(Self.stops)))
        let table = try FacilityStationTableDecoder.decode(try GTFSFeeds.bytes(directory + "/stations.csv")).table
        let units = try #require(try JSONParser.parse(try GTFSFeeds.bytes(directory + "/units.json")).arrayValue).map { object in
            let position = object["position"]?.arrayValue.flatMap { pair in
                pair.count == 2 ? pair[0].doubleValue.flatMap { lat in pair[1].doubleValue.flatMap { Coordinate(latitude: lat, longitude: $0) } } : nil
            }
            return FacilityUnit(unitID: object["unitId"]?.stringValue ?? "", facility: .elevator, status: .notAvailable,
                                location: .init(stationRef: object["stationRef"]?.stringValue, position: position))
        }
        for radius in radii {
            let expected = try #require(try JSONParser.parse(try GTFSFeeds.bytes(directory + "/expected-\(radius).json")).arrayValue)
            try Self.compare(units, expected, table: table, radius: radius, stations: stations)
        }
    }

    static func compare(_ units: [FacilityUnit], _ expected: [JSON], table: FacilityStationTable, radius: Int, stations: StationDirectory) throws {
        #expect(units.count == 3000 && expected.count == 3000)
        let joined = FacilityJoin.join(units, table: table, radiusMeters: radius, stations: stations, at: Instant(secondsSince1970: 0))
        var found: [String: [String: FacilityUnit]] = [:]
        for (station, atStation) in joined.byStation {
            for unit in atStation { found[unit.unitID, default: [:]][station] = unit }
        }
        // Each difference in words, checked once: an expectation per unit costs more than the join.
        var differences: [String] = []
        var byRule: [String: Int] = [:]
        for want in expected {
            let id = want["unitId"]?.stringValue ?? ""
            let wanted = Dictionary(uniqueKeysWithValues: (want["stations"]?.objectValue?.members ?? []).map { ($0.key, $0.value) })
            let got = found[id] ?? [:]
            if Set(got.keys) != Set(wanted.keys) { differences.append("\(id): at \(got.keys.sorted()), not \(wanted.keys.sorted())") }
            if !got.values.allSatisfy({ $0.joinedBy?.rawValue == want["joinedBy"]?.stringValue }) { differences.append("\(id): joined by another rule") }
            for (station, distance) in wanted {
                let metres = got[station]?.distanceMeters
                if distance.doubleValue.map({ abs((metres ?? -1) - $0) >= 0.01 }) ?? (metres != nil) {
                    let said = metres.map { "\($0) m" } ?? "no distance"
                    differences.append("\(id) at \(station): \(said), not \(distance.encodedString)")
                }
            }
            if let rule = want["joinedBy"]?.stringValue { byRule[rule, default: 0] += 1 }
        }
        #expect(differences.isEmpty, "within \(radius) m: \(differences.prefix(10))")
        #expect(joined.nowhere.count == expected.count - byRule.values.reduce(0, +))
        #expect(joined.joinedBy.mapKeys(\.rawValue) == byRule)
        // The set has each case: by table, by position at one station and at two, and at none.
        #expect(expected.contains { $0["joinedBy"]?.stringValue == "position" && ($0["stations"]?.objectValue?.keys.count ?? 0) > 1 })
        #expect(byRule["table", default: 0] > 0 && byRule["position", default: 0] > 0 && !joined.nowhere.isEmpty)
    }
}

private extension Dictionary {
    func mapKeys<T: Hashable>(_ transform: (Key) -> T) -> [T: Value] { Dictionary<T, Value>(uniqueKeysWithValues: map { (transform($0.key), $0.value) }) }
}
