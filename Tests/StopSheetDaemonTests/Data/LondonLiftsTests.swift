import Foundation
import StopSheetCore
import Testing
@testable import StopSheetDaemon

/// London (issue 46): TfL's real step-free map (Tests/Fixtures/facilities/tfl, the feed of
/// 2025-03-28) with TfL-shaped `Disruptions/Lifts/v2` bodies written for the tests
/// (`tfl_lifts*.HANDMADE.json`). Every station's button status and every platform's entry and
/// exit, with no lift out and with each body's, are compared with an independent reading of the
/// same files in Python (Tests/GTFS/tfl_lifts.py over Tests/GTFS/step_free.py).
@Suite struct LondonLiftsTests {
    static let fixtures = GTFSFeeds.tests + "/Fixtures/facilities"
    static let bodies = ["tfl_lifts.HANDMADE.json", "tfl_lifts_back.HANDMADE.json"]
    static let now = Instant(secondsSince1970: 1_764_669_600)

    /// The oracle's reading, made once.
    static let oracle = Result { () throws -> JSON in
        let run = try runProcess("/usr/bin/env", ["python3", GTFSFeeds.tests + "/GTFS/tfl_lifts.py", fixtures + "/tfl/gtfs"]
                                                     + bodies.map { fixtures + "/" + $0 })
        guard run.status == 0 else { throw TestFailure("tfl_lifts.py failed: \(run.stderr.suffix(2000))") }
        return try JSONParser.parse(Array(run.stdout.utf8))
    }

    /// TfL's GTFS tables as the daemon reads a feed directory of them.
    static let decoded = Result { () throws -> DecodedStations in
        try GTFSFeeds.stationsWithMaps(in: fixtures + "/tfl/gtfs")
    }
    static let directory = Result { () throws -> StationDirectory in StationDirectory(try decoded.get()) }

    static func units(_ body: String?, at moment: Instant = now) throws -> [String: [FacilityUnit]] {
        guard let body else { return [:] }
        let feed = try FacilitiesBody.decode(try GTFSFeeds.bytes(fixtures + "/" + body), local: .notKnown)
        #expect(feed.format == .tfl)
        return FacilityJoin.join(feed.units, stations: try directory.get(), at: moment).notAvailable
    }

    static func verdict(_ station: Station, _ units: [String: [FacilityUnit]]) throws -> StepFreeNow {
        StepFreeNow(station: station, topology: try directory.get().topologies[station.id], outages: [], facilities: units[station.id] ?? [])
    }

    @Test func everyStationsButtonIsWhatTheMapShows() throws {
        let expected = try #require(try Self.oracle.get()["mapStatus"]?.objectValue)
        let stations = try Self.directory.get().stations
        #expect(stations.count == 509 && expected.members.count == 509)
        var seen: [String: Int] = [:]
        for station in stations {
            let word = try #require(expected[station.id], "\(station.id) not in the oracle")
            let shown: JSON = station.stepFreeFrom == .stations ? .null
                : .string(station.stepFree == .available ? (station.partial ? "partial" : "available") : station.stepFree.rawValue)
            #expect(shown == word, "\(station.id)")
            // The map's status is the spec's sentence, word for word.
            let message = StopSheet(station: station, alerts: []).accessibilityButton.alert.message
            if word == "none" { #expect(message == "The agency currently reports no step-free access at \(station.name).") }
            if word == "available" || word == "partial" { #expect(message == "Step-free access is available at \(station.name).") }
            seen[word.stringValue ?? "null", default: 0] += 1
        }
        // TfL's map as the issue counts it: 300 stations with a step-free way, 2 without pathways.
        #expect(seen == ["available": 263, "partial": 37, "none": 207, "null": 2])
        #expect(try Self.directory.get().station(for: "940GZZLUWYP")?.stepFreeFrom == .pathways)
    }

    /// The encoded sheets say what the core's do, where a button from the map and one from the
    /// station data share a status: TfL's stations beside one whose data says none.
    @Test func theEncodedSheetsSayWhereTheStatusCameFrom() throws {
        let tfl = try Self.decoded.get()
        let elsewhere = Platform(stopID: "X1", stationID: "X", stationName: "Elsewhere", routes: [], stepFree: false)
        let directory = StationDirectory(platforms: tfl.platforms + [elsewhere], agencies: [], topologies: tfl.topologies)
        let snapshot = Snapshot.build(stations: directory, alerts: [], now: Self.now)
        let encoded = EncodedSnapshot(snapshot, zone: .notKnown)
        for station in directory.stations {
            expectSheet(encoded.stopSheet(stopID: station.id)?.sheet, matches: snapshot.stopSheet(for: station), in: .notKnown, "\(station.id)")
        }
        #expect(directory.station(for: "X")?.stepFree == StepFreeStatus.none && directory.station(for: "X")?.stepFreeFrom == .stations)
        #expect(directory.stations.contains { $0.stepFree == .none && $0.stepFreeFrom == .pathways })
    }

    @Test(arguments: [nil] + bodies)
    func everyPlatformMatchesTheIndependentReading(body: String?) throws {
        let expected = try #require(try Self.oracle.get()["verdicts"]?[body ?? "open"]?.objectValue)
        let units = try Self.units(body)
        var compared = 0
        for station in try Self.directory.get().stations {
            let now = try Self.verdict(station, units)
            guard now.basis == .pathways else {
                #expect(expected[station.id] == nil, "\(station.id) has pathways for the oracle")
                continue
            }
            compared += 1
            #expect(StepFreeRealTopologyTests.json(now) == expected[station.id], "\(body ?? "open") \(station.id)")
            // Never "none" where TfL's map shows a step-free way from its street.
            if body == nil { #expect(now.stepFree != .none || station.stepFree == .none, "\(station.id)") }
        }
        #expect(compared == expected.members.count && compared == 507)
    }

    /// The verdicts a snapshot serves (issue 51, item 4): a station where no lift is out has the
    /// one its station load worked out (`StationDirectory.quietVerdicts`), one where a lift is
    /// out is worked out afresh; both are the independent reading's, through a lift-status
    /// refresh given the snapshot it replaces, and `stationMap`'s verdict is the sheet's.
    @Test(arguments: [nil] + bodies)
    func theSnapshotsVerdictsAreTheIndependentReading(body: String?) throws {
        let expected = try #require(try Self.oracle.get()["verdicts"]?[body ?? "open"]?.objectValue)
        let directory = try Self.directory.get()
        let units = try Self.units(body)
        let feed = try body.map { try FacilitiesBody.decode(try GTFSFeeds.bytes(Self.fixtures + "/" + $0), local: .notKnown).units }
        let quiet = EncodedSnapshot(Snapshot.build(stations: directory, alerts: [], now: Self.now), zone: .notKnown)
        let data = feed.map { FacilityData(units: $0, lastGoodLoad: Self.now, staleAfterSeconds: 3_600) }
        let snapshot = Snapshot.build(stations: directory, alerts: [], facilities: data, now: Self.now)
        let encoded = EncodedSnapshot(snapshot, zone: .notKnown, previous: quiet)
        var afresh = 0
        for (index, station) in directory.stations.enumerated() {
            let (now, isQuiet) = snapshot.stepFreeNow(at: index, alertPositions: [])
            #expect(isQuiet == (units[station.id] ?? []).allSatisfy { $0.status == .available }, "\(station.id)")
            if !isQuiet { afresh += 1 }
            #expect(now == (try Self.verdict(station, units)), "\(station.id)")
            if now.basis == .pathways { #expect(StepFreeRealTopologyTests.json(now) == expected[station.id], "\(body ?? "open") \(station.id)") }
            #expect(encoded.mapVerdict(at: index) == (now.basis == .pathways ? now : nil), "\(station.id)")
            expectSheet(encoded.stopSheet(stopID: station.id)?.sheet, matches: snapshot.stopSheet(for: station), in: .notKnown, "\(station.id)")
        }
        // Wembley Park and Romford, and the lift-5-only body's Wembley Park, are worked out afresh.
        #expect(afresh == (body == nil ? 0 : Set(units.keys).count) && (body == nil || afresh > 0))
    }

    @Test func theLiftsOutAtWembleyParkAndRomford() throws {
        let directory = try Self.directory.get()
        let wembley = try #require(directory.station(for: "940GZZLUWYP"))
        let platform1 = "940GZZLUWYP-Plat01-NB-metropolitan"
        // The lift back: only the street lift (Lift 5) out, every platform still step-free, as
        // TfL's own message says.
        let back = try Self.verdict(wembley, try Self.units("tfl_lifts_back.HANDMADE.json"))
        #expect(back.stepFree == .available && back.complete && back.platforms.allSatisfy { $0.entry == true && $0.exit == true })
        #expect(back.outages.map(\.facilityID) == ["940GZZLUWYP-Lift-5"])
        // Lift 1 out too: the only lift to platform 1, which loses entry and exit.
        let units = try Self.units("tfl_lifts.HANDMADE.json")
        let out = try Self.verdict(wembley, units)
        #expect(out.stepFree == .partial)
        #expect(out.platforms.filter { $0.entry == false && $0.exit == false }.map(\.stopID) == [platform1])
        // A repeated id is one unit, with each of its messages once, safe for a terminal.
        let lift1 = try #require(out.outages.first { $0.facilityID == "940GZZLUWYP-Lift-1" })
        #expect(out.outages.filter { $0.facilityID == "940GZZLUWYP-Lift-1" }.count == 1)
        #expect(lift1.description == "WEMBLEY PARK STATION: No step free access to platform 1. The lift between the ticket hall and platform 1 is out of service."
                + " / WEMBLEY PARK STATION: Platform 1 is not step free until further notice.")
        #expect(lift1.pathways == ["940GZZLUWYP-1000257-BookH-8-940GZZLUWYP-1000257-MET1-1-lift-940GZZLUWYP-Lift-1"])
        #expect(lift1.since == nil && lift1.expectedBack == nil)
        // An id the map lacks is listed at its station, placed on no pathway: not complete.
        let lift9 = try #require(out.outages.first { $0.facilityID == "940GZZLUWYP-Lift-9" })
        #expect(lift9.pathways.isEmpty && lift9.isUnresolved && lift9.unplaced == .noRuleMatched && !out.complete)
        // An id with a trailing space is the map's lift, trimmed.
        let romford = try #require(units["910GROMFORD"]?.first)
        #expect(romford.unitID == "910GROMFORD-Lift-1")
        #expect(try Self.verdict(try #require(directory.station(for: "910GROMFORD")), units).outages.first?.pathways.count == 3)
    }

    @Test func aLiftIsOutSinceTheDaemonFirstSawIt() throws {
        let bytes = try GTFSFeeds.bytes(Self.fixtures + "/tfl_lifts.HANDMADE.json")
        let first = try FacilitiesBody.decode(bytes, local: .notKnown).units
        #expect(!first.isEmpty && first.allSatisfy { $0.since == nil })
        let t0 = Self.now, t1 = Self.now.adding(seconds: 60), t2 = Self.now.adding(seconds: 120)
        let seen = FacilityData.sinceFirstSeen(first, previous: [], seenAt: t0)
        #expect(seen.allSatisfy { $0.since == t0 })
        // Still listed a minute later: still out since the first load.
        let again = FacilityData.sinceFirstSeen(first, previous: seen, seenAt: t1)
        #expect(again.allSatisfy { $0.since == t0 })
        // Back (the second body lists only Lift 5), then out again: since the new load.
        let back = FacilityData.sinceFirstSeen(try FacilitiesBody.decode(try GTFSFeeds.bytes(Self.fixtures + "/tfl_lifts_back.HANDMADE.json"),
                                                                          local: .notKnown).units, previous: again, seenAt: t1)
        #expect(back.map(\.unitID) == ["940GZZLUWYP-Lift-5"] && back[0].since == t0)
        let outAgain = FacilityData.sinceFirstSeen(first, previous: back, seenAt: t2)
        #expect(outAgain.first { $0.unitID == "940GZZLUWYP-Lift-1" }?.since == t2)
        #expect(outAgain.first { $0.unitID == "940GZZLUWYP-Lift-5" }?.since == t0)
    }
}
