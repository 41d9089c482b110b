import Foundation
import StopSheetCore
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// Every sheet a snapshot encodes, byte for byte as main's template encoder wrote it at bd4ec2c
/// (issues 42 and 46 merged; first recorded at e87cf97, before 2.2's `stepFreeFrom`), in
/// Tests/Fixtures/recorded-sheets (recorded from that tree with `STOPSHEET_RECORD_SHEETS=1`; each
/// sheet as its length and 64-bit FNV-1a digest, 2 MB of sheets in 40 kB): every
/// CTA station at three moments of the 2015 alerts and without alert data, and every station of
/// Prague's and Euskotren's real pathways without outages and with outage alerts and lift-status
/// units on a quarter of their stops. What the encoder's design may change, the bytes may not.
@Suite struct RecordedSheetsTests {
    static let directory = Fixtures.directory + "/recorded-sheets/"
    static let recording = ProcessInfo.processInfo.environment["STOPSHEET_RECORD_SHEETS"] == "1"

    /// A sheet's line in the record: its length and FNV-1a digest, and the sheet itself when it
    /// differs (`expectRecorded` shows it).
    static func record(_ sheet: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in sheet { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "\(sheet.count)\t" + String(hash, radix: 16)
    }

    /// Each station's sheet with `sampleData`, by station id.
    static func sheets(_ snapshot: Snapshot, zone: TimeZoneRules) throws -> [(id: String, sheet: [UInt8])] {
        let encoded = EncodedSnapshot(snapshot, zone: zone)
        return try #require(snapshot.stations).stations.map { ($0.id, encoded.stopSheet(stopID: $0.id)?.sheet ?? []) }
    }

    /// Each station's sheet in a line: its id, a tab, the sheet's record.
    static func lines(_ snapshot: Snapshot, zone: TimeZoneRules) throws -> [String] {
        try sheets(snapshot, zone: zone).map { $0.id + "\t" + record($0.sheet) }
    }

    static func expectRecorded(_ name: String, _ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = directory + name + ".txt"
        let text = lines.joined(separator: "\n") + "\n"
        if recording { return try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
        let recorded = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == recorded.count, "\(name): \(lines.count) sheets, \(recorded.count) recorded", sourceLocation: sourceLocation)
        for (line, old) in zip(lines, recorded) where line != old {
            Issue.record("\(name): \(old.prefix { $0 != "\t" }) differs:\nnow   \(line)\nbefore \(old)", sourceLocation: sourceLocation)
        }
    }

    @Test func everyCTAStation() throws {
        let alerts = try AlertsDecoder.decode(Fixtures.bytes("alerts_2015-02-14.DERIVED.json"), chicago: TestZones.chicago)
        let directory = StationDirectory(platforms: try StationsDecoder.decode(Fixtures.bytes("L_stops_2021.csv")))
        let capture = CTATime.instant("2015-02-14T14:35:00", in: TestZones.chicago)!
        var lines: [String] = []
        for now in [capture, capture.adding(seconds: -86_400), capture.adding(seconds: 400_000_000)] {
            lines += try Self.lines(Snapshot.build(stations: directory, alerts: alerts, now: now), zone: TestZones.chicago)
        }
        lines += try Self.lines(Snapshot.build(stations: directory, alerts: nil, now: capture), zone: TestZones.chicago)
        try Self.expectRecorded("cta", lines)
    }

    @Test(arguments: ["prague-pid-2020-07-02", "euskotren-2025-11-27"])
    func everyStationOfRealPathways(feed: String) throws {
        let folder = GTFSFeeds.tests + "/Fixtures/gtfs-pathways/\(feed)"
        let stops = try GTFSFeeds.bytes(folder + "/stops.txt")
        let directory = StationDirectory(try GTFSFeeds.stationsWithMaps(in: folder))
        let zone = TestZones.chicago
        let now = Instant(secondsSince1970: 1_764_669_600)
        // Every stop id of the feed, in file order; an alert names every fourth, a unit stands
        // at every fourth other.
        let ids = String(decoding: stops, as: UTF8.self).split(separator: "\n").dropFirst().map { String($0.prefix { $0 != "," }) }
        let alerts = ids.enumerated().filter { $0.offset % 4 == 0 }.map { index, id in
            Alert(id: "a\(index)", kindSource: .fromTime, headline: "Elevator out of service", description: "", scopes: [.station(id)])
        }
        let statuses: [FacilityUnit.Status] = [.notAvailable, .partiallyAvailable, .unknown, .available]
        let units = ids.enumerated().filter { $0.offset % 4 == 2 }.map { index, id in
            FacilityUnit(unitID: "u\(index)", facility: .elevator, status: statuses[index / 4 % statuses.count], since: now.adding(seconds: -3600),
                           expectedBack: index % 8 == 2 ? now.adding(seconds: 7200) : nil, description: "Lift \(index) \"out\"",
                           location: FacilityUnit.Location(stopIDs: [id]))
        }
        let facilities = FacilityData(units: units, lastGoodLoad: now, staleAfterSeconds: 300)
        var lines = try Self.lines(Snapshot.build(stations: directory, alerts: [], now: now), zone: zone)
        let loud = try Self.sheets(Snapshot.build(stations: directory, alerts: alerts, facilities: facilities, now: now), zone: zone)
        let all = String(decoding: loud.flatMap(\.sheet), as: UTF8.self)
        #expect(all.contains(#""source":"alerts""#) && all.contains(#""source":"facilities""#), "outages of both sources")
        lines += loud.map { $0.id + "\t" + Self.record($0.sheet) }
        try Self.expectRecorded(String(feed.prefix { $0 != "-" }), lines)
    }

    @Test func busSheetsAndSheetsBeforeStationsLoad() throws {
        var lines = ["1106", "x\"\\\u{1}"].map { Self.record(EncodedSheet(busStopID: $0).sheet) }
        for (id, name) in [("40380", "  Clark /  Lake "), ("40380", nil), ("4\"0", "Quote \" back\\slash\ttab \u{1} é")] {
            lines.append(Self.record(StopSheet.encodedBeforeStationsLoad(stopID: id, stationName: name).sheet))
        }
        try Self.expectRecorded("other", lines)
    }
}
