import Testing
import Foundation
import StopSheetCore
import StopSheetTestSupport
@testable import StopSheetDaemon

/// The encoded snapshot encodes each sheet with alert members encoded once per distinct alert
/// set; these check that what it writes says exactly what the core's `StopSheet` says, through
/// the protocol's types (`expectSheet`).
@Suite struct EncodedSheetsTests {
    private let alerts = try! AlertsDecoder.decode(Fixtures.bytes("alerts_2015-02-14.DERIVED.json"), chicago: TestZones.chicago)
    private let directory = StationDirectory(platforms: try! StationsDecoder.decode(Fixtures.bytes("L_stops_2021.csv")))

    private func expectSameBytes(_ snapshot: Snapshot) {
        let encoded = EncodedSnapshot(snapshot, zone: TestZones.chicago)
        for station in directory.stations {
            let sheet = snapshot.stopSheet(for: station)
            expectSheet(encoded.stopSheet(stopID: station.id)?.sheet, matches: sheet, in: TestZones.chicago, "station \(station.id)")
            for platform in station.platforms {
                #expect(encoded.stopSheet(stopID: platform.stopID) == encoded.stopSheet(stopID: station.id), "platform \(platform.stopID)")
            }
        }
    }

    @Test func everyRealStationMatchesThePlainEncodingAtSeveralMoments() {
        // The capture's moment (many live alerts of every kind), a day earlier (planned ones),
        // and long after (only open-ended alerts).
        let capture = CTATime.instant("2015-02-14T14:35:00", in: TestZones.chicago)!
        for now in [capture, capture.adding(seconds: -86_400), capture.adding(seconds: 400_000_000)] {
            expectSameBytes(Snapshot.build(stations: directory, alerts: alerts, now: now))
        }
    }

    @Test func sheetsWithoutAlertDataMatchToo() {
        expectSameBytes(Snapshot.build(stations: directory, alerts: nil, now: CTATime.instant("2015-02-14T14:35:00", in: TestZones.chicago)!))
        expectSameBytes(Snapshot.build(stations: directory, alerts: [], now: CTATime.instant("2015-02-14T14:35:00", in: TestZones.chicago)!))
    }

    @Test func escapesInNamesAndAlertsMatch() {
        let odd = [Platform(stopID: "30001", stationID: "40001", stationName: "Quote \" back\\slash\ttab \u{1} é", routes: [.red], stepFree: true)]
        let directory = StationDirectory(platforms: odd)
        let alert = Alert(id: "a\"1", kindSource: .fromTime, headline: "line\nbreak \u{7f} ✓", description: "\r\n\"x\"", scopes: [.route(.red)])
        let snapshot = Snapshot.build(stations: directory, alerts: [alert], now: Instant(secondsSince1970: 0))
        expectSheet(EncodedSnapshot(snapshot, zone: TestZones.chicago).stopSheet(stopID: "40001")?.sheet, matches: snapshot.stopSheet(for: directory.stations[0]),
                    in: TestZones.chicago)
    }

    @Test func sheetsAreSharedByPlatformsAndUnknownIdsHaveNone() throws {
        let capture = CTATime.instant("2015-02-14T14:35:00", in: TestZones.chicago)!
        let encoded = EncodedSnapshot(Snapshot.build(stations: directory, alerts: alerts, now: capture), zone: TestZones.chicago)
        let station = try #require(encoded.stopSheet(stopID: "40380"))
        #expect(encoded.stopSheet(stopID: "30074") == station)
        #expect(encoded.stopSheet(stopID: "49999") == nil)
        #expect(try JSONParser.parse(station.sheet)["stationId"] == "40380")
    }

    /// Stations with the same applying alerts hold one copy of the alerts' bytes between them,
    /// not one each: the snapshot's memory grows with stations + alerts, not their product.
    @Test func stationsWithTheSameAlertsShareTheirBytes() throws {
        let capture = CTATime.instant("2015-02-14T14:35:00", in: TestZones.chicago)!
        let snapshot = Snapshot.build(stations: directory, alerts: alerts, now: capture)
        let encoded = EncodedSnapshot(snapshot, zone: TestZones.chicago)
        func storage(_ piece: [UInt8]) -> UnsafeRawPointer? { piece.withUnsafeBytes { $0.baseAddress } }
        // Two Brown Line stations that no station alert names: the same alerts, in the same order.
        let (first, second) = (try #require(encoded.stopSheet(stopID: "41310")), try #require(encoded.stopSheet(stopID: "41440")))
        #expect(snapshot.alerts(applyingTo: directory.station(for: "41310")!) == snapshot.alerts(applyingTo: directory.station(for: "41440")!))
        // The big pieces both sheets hold (a station's own members, its step-free `now` among
        // them, may be big too, and are its own).
        let big = first.pieces.filter { $0.count >= OutputBuffer.shareFrom && second.pieces.contains($0) }
        #expect(!big.isEmpty, "the alerts are big enough to be shared")
        let secondStorages = Set(second.pieces.compactMap(storage))
        for piece in big { #expect(secondStorages.contains(storage(piece)!), "a \(piece.count)-byte piece is copied, not shared") }
    }

    @Test func withoutAlertDataNoStationHasAGlyph() throws {
        let encoded = EncodedSnapshot(Snapshot.build(stations: directory, alerts: nil, now: Instant(secondsSince1970: 0)), zone: TestZones.chicago)
        let sheet = try JSONParser.parse(try #require(encoded.stopSheet(stopID: "40380")).sheet)
        #expect(sheet["alertGlyph"] == .null)
        #expect(sheet["accessibilityButton"]?["tone"] == "good")
    }

    @Test func withoutStationsThereAreNoSheets() {
        let encoded = EncodedSnapshot(Snapshot.build(stations: nil, alerts: alerts, now: Instant(secondsSince1970: 0)), zone: TestZones.chicago)
        #expect(encoded.stopSheet(stopID: "40380") == nil)
    }
}

/// The member order and shapes protocol.md shows.
@Suite struct SheetShapeTests {
    @Test func trainSheetHasTheContractShape() throws {
        let platform = Platform(stopID: "30374", stationID: "40380", stationName: "Clark/Lake", direction: "N", routes: [.blue], stepFree: true)
        let alert = Alert(id: "a", kindSource: .stated(.active), headline: "Headline a", description: "", scopes: [.systemwide])
        let snapshot = Snapshot.build(stations: StationDirectory(platforms: [platform]), alerts: [alert], now: Instant(secondsSince1970: 0))
        let sheet = try JSONParser.parse(try #require(EncodedSnapshot(snapshot, zone: TestZones.chicago).stopSheet(stopID: "40380")).sheet)
        #expect(sheet.objectValue?.keys == ["stopType", "stationId", "stationName", "alertGlyph", "accessibilityButton", "alerts", "data"])
        #expect(sheet["alertGlyph"]?["alert"]?["buttons"] == ["Close"])
        #expect(sheet["accessibilityButton"]?["stepFree"] == "available")
        #expect(sheet["alerts"]?.arrayValue?.first?["kind"] == "active")
        #expect(sheet["alerts"]?.arrayValue?.first?["scopes"] == [["type": "systemwide"]])
    }

    @Test func busSheetShowsNothing() {
        #expect(EncodedSheet(busStopID: "1106").sheet == Array(#"{"stopType":"bus","stopId":"1106","alertGlyph":null,"accessibilityButton":null}"#.utf8))
    }

    @Test func theSheetBeforeStationsLoadIsTheCoresOne() {
        let sheet = StopSheet.beforeStationsLoad(stopID: "40380", stationName: "  Clark /  Lake ")
        expectSheet(StopSheet.encodedBeforeStationsLoad(stopID: "40380", stationName: "  Clark /  Lake ").sheet, matches: sheet, in: TestZones.chicago)
    }
}
