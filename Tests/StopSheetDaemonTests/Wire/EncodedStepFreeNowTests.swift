import Foundation
@testable import StopSheetDaemon
import StopSheetCore
import Testing

/// `accessibilityButton.now` in the encoded sheets of Prague's real metro topology, through
/// refreshes — an outage that starts, one that ends, and a new stations load. Nemocnice Motol's
/// `now` is checked against literal values read off its tables by hand; every other station only
/// for the wiring: the encoding writes what the core's `StopSheet` says (`expectSheet`), byte for
/// byte as a snapshot encoded afresh.
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
            expectSheet(encoded.stopSheet(stopID: station.id)?.sheet, matches: snapshot.stopSheet(for: station), in: encoded.zone, "\(station.id)",
                        sourceLocation: sourceLocation)
            #expect(encoded.stopSheet(stopID: station.id) == afresh.stopSheet(stopID: station.id), "\(station.id)", sourceLocation: sourceLocation)
        }
    }

    /// Nemocnice Motol (U306S1) by hand, from its stops.txt and pathways.txt rows: the step-free
    /// entrance E6 walks to platform Z101P (U306P7); Z102P is reached from the street (E1 → N6 → N5)
    /// only by the elevator U306P10 between N5 and N1 (Výtah, "lift"), N2 being an escalator away.
    /// Naming N1 takes that elevator out: Z102P has neither entry nor exit, the station is partial.
    /// Its ways (issue 51): the four entrances not marked stepped, each of which reaches both
    /// platforms with nothing out; Z102P's all go by the elevator.
    static func motol(z102: Bool, outages: String) throws -> JSON {
        let ways = { (up: Bool) in
            [("U306S1E6", "BUS Řepy, Zličín"), ("U306S1E2", "BUS Vypich, Nem. Na Homolce"), ("U306S1E3", "FN Motol"), ("U306S1E1", "BUS Řepy, Zličín")]
                .map { #"{"id":"\#($0.0)","name":"\#($0.1)","entry":\#(up),"exit":\#(up)}"# }.joined(separator: ",")
        }
        return try JSONParser.parse("""
            {"stepFree":"\(z102 ? "available" : "partial")","basis":"pathways","complete":true,"platforms":[\
            {"stopId":"U306Z101P","name":"Nemocnice Motol","entry":true,"exit":true,"via":[\(ways(true))]},\
            {"stopId":"U306Z102P","name":"Nemocnice Motol","entry":\(z102),"exit":\(z102),"via":[\(ways(z102))]}],"outages":\(outages)}
            """)
    }

    static func now(_ encoded: EncodedSnapshot, _ stopID: String) throws -> JSON? {
        try JSONParser.parse(try #require(encoded.stopSheet(stopID: stopID)).sheet)["accessibilityButton"]?["now"]
    }

    @Test func refreshesShowWhatTheStationsDecide() throws {
        let directory = try Self.directory()
        let at = Instant(secondsSince1970: 1_000)
        let quiet = EncodedSnapshot(Snapshot.build(stations: directory, alerts: [], now: at), zone: .utc)
        try Self.expectPlainPath(quiet)
        #expect(try Self.now(quiet, "U306S1") == (try Self.motol(z102: true, outages: "[]")))
        // The outage starts: the station's verdict is computed, not taken from before.
        let out = EncodedSnapshot(Snapshot.build(stations: directory, alerts: [Self.outage], now: at), zone: .utc, previous: quiet)
        try Self.expectPlainPath(out)
        #expect(try Self.now(out, "U306S1")
            == (try Self.motol(z102: false, outages: #"[{"alertId":"motol","facility":"elevator","facilityId":null,"pathways":["U306P10"],"source":"alerts","status":"notAvailable","since":null,"expectedBack":null,"description":"","placedBy":"stopReference"}]"#)))
        // And ends.
        let back = EncodedSnapshot(Snapshot.build(stations: directory, alerts: [], now: at), zone: .utc, previous: out)
        try Self.expectPlainPath(back)
        #expect(try Self.now(back, "U306S1") == (try Self.motol(z102: true, outages: "[]")))
        // A new stations load (here: without pathways) takes nothing from the snapshot before.
        var plain = directory.stations.flatMap(\.platforms)
        plain.sort { $0.stopID < $1.stopID }
        let reloaded = EncodedSnapshot(Snapshot.build(stations: StationDirectory(platforms: plain), alerts: [], now: at), zone: .utc, previous: back)
        try Self.expectPlainPath(reloaded)
        #expect(try Self.now(reloaded, "U306S1")?["basis"] == "stations")
    }
}
