import Foundation
@testable import StopSheetDaemon
import StopSheetCore
import Testing

/// `accessibilityButton.now` in the encoded sheets of Prague's real metro topology: what the core's
/// `StopSheet` says (`expectSheet`), and byte for byte what a snapshot encoded afresh writes, also
/// when an alert refresh reuses the quiet verdicts of the snapshot it replaces — an outage that
/// starts, one that ends, and a new stations load.
@Suite struct EncodedStepFreeNowTests {
    static let feed = GTFSFeeds.tests + "/Fixtures/gtfs-pathways/prague-pid-2020-07-02/"

    static func directory() throws -> StationDirectory {
        let stops = try GTFSFeeds.bytes(feed + "stops.txt")
        var decoded = try GTFSStopsDecoder.decode(stops)
        decoded.topologies = try GTFSPathwaysDecoder.decode(stops: stops, pathways: try GTFSFeeds.bytes(feed + "pathways.txt")).stations
        return StationDirectory(decoded)
    }

    /// Nemocnice Motol's elevator, named by the node at its end.
    static let outage = Alert(id: "motol", kindSource: .fromTime, headline: "Elevator out of service", description: "",
                              scopes: [.station("U306N1")])

    static func expectPlainPath(_ encoded: EncodedSnapshot, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let snapshot = encoded.snapshot
        let afresh = EncodedSnapshot(snapshot, zone: encoded.zone)
        for station in try #require(snapshot.stations).stations {
            expectSheet(encoded.stopSheet(stopID: station.id)?.object, matches: snapshot.stopSheet(for: station), in: encoded.zone, "\(station.id)",
                        sourceLocation: sourceLocation)
            #expect(encoded.stopSheet(stopID: station.id) == afresh.stopSheet(stopID: station.id), "\(station.id)", sourceLocation: sourceLocation)
        }
    }

    static func now(_ encoded: EncodedSnapshot, _ stopID: String) throws -> JSON? {
        try JSONParser.parse(try #require(encoded.stopSheet(stopID: stopID)).object)["accessibilityButton"]?["now"]
    }

    @Test func refreshesReuseOnlyWhatTheStationsDecide() throws {
        let directory = try Self.directory()
        let at = Instant(secondsSince1970: 1_000)
        let quiet = EncodedSnapshot(Snapshot.build(stations: directory, alerts: [], now: at), zone: .utc)
        try Self.expectPlainPath(quiet)
        #expect(try Self.now(quiet, "U306S1")?["stepFree"] == "available")
        // The outage starts: the station's verdict is computed, not taken from before.
        let out = EncodedSnapshot(Snapshot.build(stations: directory, alerts: [Self.outage], now: at), zone: .utc, previous: quiet)
        try Self.expectPlainPath(out)
        #expect(try Self.now(out, "U306S1")?["stepFree"] == "partial")
        // And ends.
        let back = EncodedSnapshot(Snapshot.build(stations: directory, alerts: [], now: at), zone: .utc, previous: out)
        try Self.expectPlainPath(back)
        #expect(try Self.now(back, "U306S1")?["stepFree"] == "available")
        // A new stations load (here: without pathways) takes nothing from the snapshot before.
        var plain = directory.stations.flatMap(\.platforms)
        plain.sort { $0.stopID < $1.stopID }
        let reloaded = EncodedSnapshot(Snapshot.build(stations: StationDirectory(platforms: plain), alerts: [], now: at), zone: .utc, previous: back)
        try Self.expectPlainPath(reloaded)
        #expect(try Self.now(reloaded, "U306S1")?["basis"] == "stations")
    }
}
