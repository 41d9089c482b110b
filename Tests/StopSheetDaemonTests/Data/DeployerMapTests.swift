import Foundation
import StopSheetCore
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// A deployer's map where the agency publishes none (issue 50, `--topology-url`), read as a
/// stations round reads it (`StationsLoad`, through `CacheLoader`) over CTA's real 'L' stops:
/// the example map of docs/examples/cta-topology with CTA's real alerts of 2026-04-26, and the
/// HANDMADE map of Tests/Fixtures/deployer-map with its HANDMADE alerts, every verdict compared
/// with an independent reading in Python (Tests/GTFS/deployer_map_verdicts.py over
/// Tests/GTFS/step_free.py); the notices, the refusals and the last good map kept.
@Suite struct DeployerMapTests {
    static let lStops = Fixtures.bytes("L_stops_2021.csv")
    static let example = Fixtures.packageRoot + "/docs/examples/cta-topology"
    static let handmade = Fixtures.path("deployer-map")
    /// The capture's own time: every alert in it has started, none has ended.
    static let now = Instant(secondsSince1970: 1_777_218_968)

    /// A stations round: the 'L' stops with what the topology URL brought (`companion`), over
    /// the map in `directory` when it is one.
    static func load(_ companion: CompanionFetch?, directory: String? = nil, previous: StationDirectory? = nil) throws -> StationDirectory {
        let stations = try FileSource(url: "file://" + Fixtures.path("L_stops_2021.csv"))
        let map = try directory.map { try makeSource(url: "file://" + $0, options: HTTPOptions(version: "test")) }
        let source = CompanionSource(main: stations, companion: map, named: "topology", required: false)
        let input = CacheLoader.Input(body: lStops, companion: companion, source: source, reading: FeedReading(), zones: .cta, local: .notKnown,
                                      previousStations: previous)
        guard case .stations(let directory) = try CacheLoader(.stations).decode(input) else { throw TestFailure("not a stations load") }
        return directory
    }

    static func mapped(_ directory: String) throws -> StationDirectory {
        try load(.body(Fixtures.bytes(atPath: directory + "/stops.txt")), directory: directory)
    }

    /// Each alert alone at its station, as the oracle reads it: its verdict.
    static func verdicts(_ stations: StationDirectory, alerts path: String) throws -> [String: [String: StepFreeNow]] {
        let alerts = try AlertsDecoder.decodeFeed(Fixtures.bytes(atPath: path), chicago: TimeZones.cta.chicago).alerts
        var verdicts: [String: [String: StepFreeNow]] = [:]
        for alert in alerts {
            for case .station(let id) in alert.scopes {
                let station = try #require(stations.station(for: id))
                verdicts[alert.id, default: [:]][id] = StepFreeNow(station: station, topology: stations.topologies[id], applying: [alert], now: now)
            }
        }
        return verdicts
    }

    /// The oracle's reading of the same files.
    static func oracle(_ directory: String, alerts: String) throws -> JSON {
        let run = try runProcess("/usr/bin/env", ["python3", GTFSFeeds.tests + "/GTFS/deployer_map_verdicts.py", Fixtures.path("L_stops_2021.csv"),
                                                  directory, alerts])
        guard run.status == 0 else { throw TestFailure("deployer_map_verdicts.py failed: \(run.stderr.suffix(2000))") }
        return try JSONParser.parse(Array(run.stdout.utf8))
    }

    /// A verdict as the oracle writes it: platforms by stop id (the oracle keeps the CSV's
    /// order, the daemon its own), outages with the pathways they take out.
    static func same(_ now: StepFreeNow, _ expected: JSON?) -> Bool {
        guard now.basis == .pathways else { return expected == "no map" }
        guard let expected, expected["stepFree"]?.stringValue == now.stepFree.rawValue, expected["complete"]?.boolValue == now.complete,
              let platforms = expected["platforms"]?.arrayValue, platforms.count == now.platforms.count,
              let outages = expected["outages"]?.arrayValue else { return false }
        let said = Dictionary(uniqueKeysWithValues: now.platforms.map { ($0.stopID, [$0.entry.map(JSON.bool) ?? .null, $0.exit.map(JSON.bool) ?? .null]) })
        return platforms.allSatisfy { said[$0["stopId"]?.stringValue ?? ""] == [$0["entry"] ?? .null, $0["exit"] ?? .null] }
            && outages.map { $0["pathways"]?.arrayValue?.compactMap(\.stringValue) ?? [] } == now.outages.map(\.pathways)
    }

    /// CTA's six real elevator alerts on the example map: Western's Loop-bound platform loses
    /// both ways and its Kimball-bound platform keeps them; Jackson's street elevator at the
    /// Adams-Jackson entrance takes both platforms; Grand's 95th-bound platform elevator its
    /// platform alone; each placed by its phrase, and each as the oracle reads it. Stations the
    /// map does not cover keep no pathways.
    @Test func theRealCTAAlertsOnTheExampleMap() throws {
        let stations = try Self.mapped(Self.example)
        #expect(stations.topologies.keys.sorted() == ["40330", "40560", "41480"], "\(stations.notices.first)")
        #expect(stations.notices.count == 0, "\(stations.notices.first)")
        let verdicts = try Self.verdicts(stations, alerts: Fixtures.path("alerts_2026-04-26.json"))
        let expected = try Self.oracle(Self.example, alerts: Fixtures.path("alerts_2026-04-26.json"))
        for (alert, byStation) in verdicts {
            for (station, now) in byStation {
                #expect(Self.same(now, expected[alert]?[station]), "\(alert) at \(station): \(now) vs \(expected[alert]?[station]?.encodedString ?? "none")")
            }
        }
        let western = try #require(verdicts["111489"]?["41480"])
        #expect(western.basis == .pathways && western.stepFree == .partial)
        #expect(western.platforms.map { [$0.stopID: [$0.entry, $0.exit]] } == [["30283": [true, true]], ["30284": [false, false]]]
                || western.platforms.map { [$0.stopID: [$0.entry, $0.exit]] } == [["30284": [false, false]], ["30283": [true, true]]])
        #expect(western.outages.map(\.placedBy) == [.phrase] && western.outages.map(\.pathways) == [["41480-elevator-loop"]])
        #expect(verdicts["114461"]?["40560"]?.stepFree == StepFreeNow.Verdict.none)
        #expect(verdicts["114461"]?["40560"]?.outages.map(\.pathways) == [["40560-elevator-street"]])
        #expect(verdicts["114530"]?["40330"]?.outages.map(\.pathways) == [["40330-elevator-95th"]])
        #expect(verdicts["114527"]?["40390"]?.basis == .stations, "Forest Park is not on the map")
    }

    /// The HANDMADE map of four stations: every alert's verdict as the oracle reads it; of
    /// "platform elevator" and "Inner Loop platform elevator", both in alert 90001's words, only
    /// the longer counts; a `reversed_signposted_as` names its elevator (90006); a vague alert is
    /// issue 42's any one candidate (90004); Wilson's map misses two platforms and is refused.
    @Test func theHandmadeMapAsTheOracleReadsIt() throws {
        let stations = try Self.mapped(Self.handmade)
        #expect(stations.topologies.keys.sorted() == ["40050", "40380", "41320"])
        let alerts = Self.handmade + "/alerts.HANDMADE.json"
        let verdicts = try Self.verdicts(stations, alerts: alerts)
        let expected = try Self.oracle(Self.handmade, alerts: alerts)
        #expect(verdicts.count == 8)
        for (alert, byStation) in verdicts {
            for (station, now) in byStation {
                #expect(Self.same(now, expected[alert]?[station]), "\(alert) at \(station): \(now) vs \(expected[alert]?[station]?.encodedString ?? "none")")
            }
        }
        #expect(verdicts["90001"]?["40380"]?.outages.map(\.pathways) == [["40380-inner"]], "the longer phrase alone")
        #expect(verdicts["90002"]?["40380"]?.outages.map(\.pathways) == [["40380-outer"]])
        #expect(verdicts["90006"]?["40050"]?.outages.map(\.pathways) == [["40050-linden"]], "by its reversed_signposted_as")
        #expect(verdicts["90004"]?["41320"]?.outages.first?.unplaced == .noRuleMatched)
        #expect(verdicts["90004"]?["41320"]?.stepFree == .unknown)
        #expect(verdicts["90008"]?["40540"]?.basis == .stations, "Wilson's map is refused")
    }

    /// The notices: a row naming a station or platform the station data lacks is one each (and
    /// no location), bad pathway rows are GTFSPathwaysDecoder's, and Wilson's refusal says which
    /// platform the map does not reach; all named `topology …`.
    @Test func theMapsNoticesAreCountedAndNamed() throws {
        let notices = try Self.mapped(Self.handmade).notices
        let problems = notices.first.map { "\($0.file) \($0.line): \($0.problem)" }
        #expect(notices.count == 7, "\(problems)")
        #expect(notices.first.allSatisfy { $0.file.hasPrefix(DeployerMap.noticePrefix) }, "\(problems)")
        for expected in ["topology stops.txt 11: '49999-entrance': station '49999' is not in the station data",
                         "topology stops.txt 12: platform '39999' is not in the station data",
                         "topology stops.txt 13: boarding area '39999-area': platform '39999' is not in the station data",
                         "topology stops.txt 14: station '49998' is not in the station data",
                         "topology pathways.txt 19: pathway_mode '9' is not 1 to 7",
                         "topology pathways.txt 20: to_stop_id '41320-nowhere' names no entrance, platform, node or boarding area of a station",
                         "topology pathways.txt 1: station '40540': platform '30106' is not reached both ways from the street; its map is refused"] {
            #expect(problems.contains(expected), "\(expected) not in \(problems)")
        }
    }

    /// Where the agency's own data has pathways, its map stands and the deployer's is refused:
    /// here the example map applied over data already mapped by it.
    @Test func theAgencysOwnMapStands() throws {
        var decoded = try StationsDecoder.decodeStations(Self.lStops)
        let map = try StationsLoad.tables(Fixtures.bytes(atPath: Self.example + "/stops.txt"),
                                          source: try makeSource(url: "file://" + Self.example, options: HTTPOptions(version: "test")),
                                          maxTableBytes: 1 << 20)
        try map.apply(to: &decoded)
        let own = decoded.topologies
        try map.apply(to: &decoded)
        #expect(decoded.topologies == own)
        #expect(decoded.notices.first.filter { $0.problem.contains("the agency's own data has pathways here") }.count == 3)
    }

    /// The last good map stands when the round's map fails or does not decode, and is applied to
    /// the round's new station data; with none before, the stations load without a map; each
    /// time a notice says why.
    @Test func theLastGoodMapIsKept() throws {
        let good = try Self.mapped(Self.example)
        for companion: CompanionFetch in [.failed(FetchFailure("topology http://example.invalid/map.zip: HTTP 503")), .body(Array("<html>".utf8)), .unchanged] {
            let next = try Self.load(companion, previous: good)
            #expect(next.topologies == good.topologies, "\(companion)")
            #expect(next.deployerMap == good.deployerMap)
            let kept = next.notices.first.filter { $0.file == StationsLoad.keptNoticeFile }.map(\.problem)
            if case .unchanged = companion { #expect(kept.isEmpty) } else { #expect(kept.count == 1 && kept[0].hasPrefix("the last good map kept: "), "\(kept)") }
        }
        let none = try Self.load(.failed(FetchFailure("topology http://example.invalid/map.zip: HTTP 503")))
        #expect(none.topologies.isEmpty && none.count == 143)
        #expect(none.notices.first.map(\.problem) == ["no map loaded: topology http://example.invalid/map.zip: HTTP 503"])
    }

    /// The warning of a stations round that kept the last good map (`Refresher.companionKept`)
    /// gives the kept notice's reason (or, with no map before, why none was loaded); a round that
    /// took its map warns of nothing.
    @Test func aRoundThatKeptTheMapWarnsWithItsReasonAndNoOtherDoes() throws {
        let good = try Self.mapped(Self.example)
        let unused: Result<Fetched, FetchFailure> = .failure(FetchFailure("not read for a stations round"))
        let kept = try Self.load(.body(Array("<html>".utf8)), previous: good)
        let reason = Refresher.companionKept(unused, .stations(kept))?.message
        #expect(reason != nil && reason == kept.notices.first.first { $0.file == StationsLoad.keptNoticeFile }?.problem, "\(reason ?? "none")")
        #expect(Refresher.companionKept(unused, .stations(good)) == nil)
        let none = try Self.load(.failed(FetchFailure("topology http://example.invalid/map.zip: HTTP 503")))
        #expect(Refresher.companionKept(unused, .stations(none))?.message == "no map loaded: topology http://example.invalid/map.zip: HTTP 503")
    }

    /// A zip over any URL, a directory over `file://` only: the same map either way; any other
    /// body is refused in words.
    @Test func aZipOrADirectory() throws {
        let zip = try makeTemporaryDirectory() + "/map.zip"
        let made = try runProcess("/usr/bin/env", ["python3", "-c", "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w') as z:\n    [z.write(sys.argv[2] + '/' + n, n) for n in ('stops.txt', 'pathways.txt', 'levels.txt')]",
                                                   zip, Self.example])
        #expect(made.status == 0, "\(made.stderr)")
        let zipped = try Self.load(.body(Fixtures.bytes(atPath: zip)))
        #expect(zipped.topologies == (try Self.mapped(Self.example)).topologies)
        #expect(throws: FetchFailure.self) { try StationsLoad.tables(Array("stop_id\n".utf8), source: nil, maxTableBytes: 1 << 20) }
    }

    /// A lift-status unit is placed on a deployer's map by the rules it has today: here by its
    /// id, a pathway's `pathway_id`; out, it takes Western's Loop-bound platform as the alert does.
    @Test func aLiftStatusUnitIsPlacedOnTheMapAsOnAnAgencys() throws {
        let stations = try Self.mapped(Self.example)
        let western = try #require(stations.station(for: "41480"))
        let unit = FacilityUnit(unitID: "41480-elevator-loop", facility: .elevator, status: .notAvailable)
        let now = StepFreeNow(station: western, topology: stations.topologies["41480"], outages: [], facilities: [unit])
        #expect(now.outages.map(\.pathways) == [["41480-elevator-loop"]])
        #expect(Dictionary(uniqueKeysWithValues: now.platforms.map { ($0.stopID, [$0.entry, $0.exit]) }) == ["30283": [true, true], "30284": [false, false]])
    }
}
