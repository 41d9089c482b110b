import Testing
@testable import StopSheetCore

/// The snapshot assembles each sheet from alert members encoded once per distinct alert set;
/// these check it byte for byte against the plain path, `StopSheet.json.encoded`.
@Suite struct SnapshotEncodingTests {
    private let alerts = try! AlertsDecoder.decode(Fixtures.bytes("alerts_2015-02-14.DERIVED.json"))
    private let directory = StationDirectory(platforms: try! StationsDecoder.decode(Fixtures.bytes("L_stops_2021.csv")))

    private func expectSameBytes(_ snapshot: Snapshot) {
        for station in directory.stations {
            let plain = snapshot.stopSheet(for: station).json.encoded
            #expect(snapshot.encodedStopSheet(stopID: station.id) == plain, "station \(station.id)")
            for platform in station.platforms {
                #expect(snapshot.encodedStopSheet(stopID: platform.stopID) == plain, "platform \(platform.stopID)")
            }
        }
    }

    @Test func everyRealStationMatchesThePlainEncodingAtSeveralMoments() {
        // The capture's moment (many live alerts of every kind), a day earlier (planned ones),
        // and long after (only open-ended alerts).
        let capture = CTATime.instant("2015-02-14T14:35:00")!
        for now in [capture, capture.adding(seconds: -86_400), capture.adding(seconds: 400_000_000)] {
            expectSameBytes(Snapshot.build(stations: directory, alerts: alerts, now: now))
        }
    }

    @Test func sheetsWithoutAlertDataMatchToo() {
        expectSameBytes(Snapshot.build(stations: directory, alerts: nil, now: CTATime.instant("2015-02-14T14:35:00")!))
        expectSameBytes(Snapshot.build(stations: directory, alerts: [], now: CTATime.instant("2015-02-14T14:35:00")!))
    }

    @Test func escapesInNamesAndAlertsMatch() {
        let odd = [Platform(stopID: "30001", stationID: "40001", stationName: "Quote \" back\\slash\ttab \u{1} é", routes: [.red], stepFree: true)]
        let directory = StationDirectory(platforms: odd)
        let alert = Alert(id: "a\"1", kindSource: .fromTime, headline: "line\nbreak \u{7f} ✓", description: "\r\n\"x\"", scopes: [.route(.red)])
        let snapshot = Snapshot.build(stations: directory, alerts: [alert], now: Instant(secondsSince1970: 0))
        #expect(snapshot.encodedStopSheet(stopID: "40001") == snapshot.stopSheet(for: directory.stations[0]).json.encoded)
    }
}

@Suite struct JSONStringEncodingTests {
    @Test func escapesExactlyQuoteBackslashAndControlCharacters() {
        #expect(JSON.string("plain").encodedString == #""plain""#)
        #expect(JSON.string("").encodedString == #""""#)
        #expect(JSON.string("a\"b\\c\nd\re\tf\u{0}g\u{1f}h").encodedString == #""a\"b\\c\nd\re\tf\u0000g\u001fh""#)
        #expect(JSON.string("é ✓ \u{7f} 🚇").encodedString == "\"é ✓ \u{7f} 🚇\"")
        #expect(JSON.string("\"\"").encodedString == #""\"\"""#)
    }
}
