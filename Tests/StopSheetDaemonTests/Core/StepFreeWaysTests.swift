import Foundation
import StopSheetCore
import Testing

/// Which way is step-free now (issue 51): each platform's `via` on four real maps (Euskotren's,
/// WMATA's and Prague's in Tests/Fixtures/gtfs-pathways, TfL's in
/// Tests/Fixtures/facilities/tfl/gtfs), compared with an independent reading in Python that walks
/// from each street end alone (Tests/GTFS/step_free_via.py): with nothing out, with each elevator
/// out in turn, with a station's first elevator of unknown status, and with an elevator out that
/// places no pathway (any one of the station's elevators may be it).
@Suite struct StepFreeWaysTests {
    static let maps = [
        "gtfs-pathways/euskotren-2025-11-27", "gtfs-pathways/wmata-2026-04", "gtfs-pathways/prague-pid-2020-07-02", "facilities/tfl/gtfs",
    ]

    struct Map {
        var stations: StationDirectory
        var expected: JSON
    }

    /// Each map decoded as the daemon decodes a feed directory, and the oracle's reading of it.
    static func map(_ folder: String) throws -> Map {
        let directory = GTFSFeeds.tests + "/Fixtures/" + folder
        let decoded = try GTFSFeeds.stationsWithMaps(in: directory)
        let run = try runProcess("/usr/bin/env", ["python3", GTFSFeeds.tests + "/GTFS/step_free_via.py", directory])
        guard run.status == 0 else { throw TestFailure("step_free_via.py failed: \(run.stderr.suffix(2000))") }
        return Map(stations: StationDirectory(decoded), expected: try JSONParser.parse(Array(run.stdout.utf8)))
    }

    /// The units that make a moment of the oracle's: a lift-status unit named by the pathway's id
    /// (placed on it by its id), or one that names nothing (so any elevator may be it).
    static func units(_ moment: String) -> [FacilityUnit] {
        if moment.hasPrefix("out ") { return [FacilityUnit(unitID: String(moment.dropFirst(4)), facility: .other, status: .notAvailable)] }
        if moment.hasPrefix("unknown ") { return [FacilityUnit(unitID: String(moment.dropFirst(8)), facility: .other, status: .unknown)] }
        if moment == "unplaced" { return [FacilityUnit(unitID: "no such lift", facility: .elevator, status: .notAvailable)] }
        return []
    }

    /// A platform as the oracle writes it.
    static func json(_ platform: StepFreeNow.PlatformAccess) -> JSON {
        let bool = { (value: Bool?) in value.map(JSON.bool) ?? .null }
        return .object(JSONObject([
            ("stopId", .string(platform.stopID)), ("entry", bool(platform.entry)), ("exit", bool(platform.exit)),
            ("via", platform.via.map { via in
                .array(via.map { .object(JSONObject([("id", .string($0.id)), ("name", .string($0.name)), ("entry", bool($0.entry)), ("exit", bool($0.exit))])) })
            } ?? .null),
        ]))
    }

    @Test(arguments: maps)
    func everyPlatformsWaysAreTheIndependentReading(folder: String) throws {
        let map = try Self.map(folder)
        let expected = try #require(map.expected.objectValue)
        #expect(expected.members.count > 40, "\(folder): too few stations with a street")
        var compared = 0
        for station in map.stations.stations {
            let topology = map.stations.topologies[station.id]
            guard let moments = expected[station.id]?.objectValue else {
                // No map, or one that shows no street: no `via` at all.
                let now = StepFreeNow(station: station, topology: topology, outages: [])
                #expect(now.platforms.allSatisfy { $0.via == nil }, "\(folder) \(station.id)")
                continue
            }
            for (moment, platforms) in moments.members {
                let now = StepFreeNow(station: station, topology: topology, outages: [], facilities: Self.units(moment))
                #expect(now.basis == .pathways)
                if moment.hasPrefix("out ") || moment.hasPrefix("unknown ") {
                    // The unit is on the one pathway the oracle took out, else the comparison says nothing.
                    #expect(now.outages.map(\.pathways) == [[String(moment.split(separator: " ", maxSplits: 1)[1])]], "\(station.id) \(moment)")
                }
                let byID = Dictionary(uniqueKeysWithValues: (platforms.arrayValue ?? []).compactMap { platform in
                    platform["stopId"]?.stringValue.map { ($0, platform) }
                })
                for platform in now.platforms {
                    guard let want = byID[platform.stopID] else { continue }
                    #expect(Self.json(platform) == want, "\(folder) \(station.id) \(moment)")
                    compared += 1
                }
            }
        }
        #expect(compared > 200, "\(folder): \(compared) platforms compared")
    }

    /// The cases on real stations, so that a change of fixture or oracle cannot make the
    /// comparison above vacuous.
    @Test func aLostEntranceAndANullWayOnTheRealMap() throws {
        let wmata = try Self.map("gtfs-pathways/wmata-2026-04")
        // With one elevator out, a platform keeps a way and loses another; it still has entry.
        var lost = 0, unsure = 0
        for station in wmata.stations.stations {
            guard let topology = wmata.stations.topologies[station.id] else { continue }
            for lift in topology.elevatorPathways {
                let now = StepFreeNow(station: station, topology: topology, outages: [],
                                      facilities: Self.units("out " + topology.pathways[lift].id))
                for platform in now.platforms {
                    let via = try #require(platform.via)
                    if via.contains(where: { $0.entry == false }), via.contains(where: { $0.entry == true }) {
                        lost += 1
                        #expect(platform.entry == true)
                    }
                }
            }
            // An elevator out that places no pathway: a way one of the station's elevators carries is null.
            let open = StepFreeNow(station: station, topology: topology, outages: [])
            let unplaced = StepFreeNow(station: station, topology: topology, outages: [], facilities: Self.units("unplaced"))
            for (platform, before) in zip(unplaced.platforms, open.platforms) {
                let via = try #require(platform.via), was = try #require(before.via)
                #expect(via.map(\.id) == was.map(\.id), "the ways are those with every pathway open")
                for (way, wasWay) in zip(via, was) where way.entry == nil {
                    unsure += 1
                    #expect(wasWay.entry == true)
                    #expect(unplaced.complete == false)
                }
            }
        }
        #expect(lost > 10, "WMATA: \(lost) platforms lose one way and keep another with one elevator out")
        #expect(unsure > 10, "WMATA: \(unsure) platforms with a null way under an unplaced elevator")
    }

    /// The derivation is the issue's: true when some way is, null when none is and some is null, else false.
    @Test(arguments: [
        ([Bool?](), false as Bool?), ([false], false), ([nil], nil), ([false, nil], nil), ([nil, true], true), ([false, true], true), ([true], true),
    ] as [([Bool?], Bool?)])
    func aPlatformsAccessIsItsWays(ways: [Bool?], expected: Bool?) {
        let via = ways.enumerated().map { StepFreeNow.Way(id: "E\($0.offset)", name: "", entry: $0.element, exit: $0.element) }
        let access = StepFreeNow.Way.access(via: via)
        #expect(access.entry == expected)
        #expect(access.exit == expected)
        // Some way works whichever outage in doubt is out: only a null becomes true.
        let surely = StepFreeNow.Way.access(via: via, surely: (true, true))
        #expect(surely.entry == (expected == nil ? true : expected))
    }
}
