import Testing
@testable import StopSheetCore

@Suite struct SnapshotTests {
    let now = RulesTestData.now

    @Test func sheetsAreEncodedOncePerStationAndSharedByPlatforms() throws {
        let snapshot = Snapshot.build(stations: RulesTestData.directory, alerts: [RulesTestData.alert("all", [.systemwide])], now: now)
        let station = try #require(snapshot.encodedStopSheet(stopID: "40380"))
        #expect(snapshot.encodedStopSheet(stopID: "30074") == station)
        #expect(snapshot.encodedStopSheet(stopID: "49999") == nil)
        let decoded = try JSONParser.parse(station)
        #expect(decoded["alertGlyph"]?["count"] == 1)
        #expect(decoded == snapshot.stopSheet(for: RulesTestData.station("40380")).json)
    }

    @Test func liveAlertsDropEndedOnesAndRepeatedIds() {
        let alerts = [
            RulesTestData.alert("1", [.systemwide], kind: .fromTime, end: now),
            RulesTestData.alert("2", [.systemwide], kind: .fromTime, start: now.adding(seconds: 30)),
            RulesTestData.alert("2", [.route(.red)]),
            RulesTestData.alert("3", [.systemwide], kind: .fromTime, start: now.adding(seconds: -30), end: now.adding(seconds: 10)),
        ]
        let snapshot = Snapshot.build(stations: RulesTestData.directory, alerts: alerts, now: now)
        #expect(snapshot.liveAlerts.map(\.alert.id) == ["2", "3"])
        #expect(snapshot.liveAlerts.map(\.kind) == [.planned, .active])
        #expect(snapshot.nextBoundary == now.adding(seconds: 10))
        let sheet = snapshot.stopSheet(for: RulesTestData.station("40990"))
        #expect(sheet.alerts.map(\.alert.id) == ["3", "2"])
    }

    @Test func rebuildingAtTheBoundaryChangesKinds() {
        let alerts = [RulesTestData.alert("soon", [.systemwide], kind: .fromTime, start: now.adding(seconds: 2), end: now.adding(seconds: 4))]
        let before = Snapshot.build(stations: RulesTestData.directory, alerts: alerts, now: now)
        #expect(before.liveAlerts.map(\.kind) == [.planned])
        let atStart = Snapshot.build(stations: RulesTestData.directory, alerts: alerts, now: before.nextBoundary!)
        #expect(atStart.liveAlerts.map(\.kind) == [.active])
        let atEnd = Snapshot.build(stations: RulesTestData.directory, alerts: alerts, now: atStart.nextBoundary!)
        #expect(atEnd.liveAlerts.isEmpty)
        #expect(atEnd.nextBoundary == nil)
    }

    @Test func withoutAlertDataNoStationHasAGlyph() throws {
        let snapshot = Snapshot.build(stations: RulesTestData.directory, alerts: nil, now: now)
        let sheet = try JSONParser.parse(try #require(snapshot.encodedStopSheet(stopID: "40380")))
        #expect(sheet["alertGlyph"] == .null)
        #expect(sheet["accessibilityButton"]?["tone"] == "good")
    }

    @Test func withoutStationsThereAreNoSheets() {
        let snapshot = Snapshot.build(stations: nil, alerts: [RulesTestData.alert("all", [.systemwide])], now: now)
        #expect(snapshot.encodedStopSheet(stopID: "40380") == nil)
        #expect(snapshot.liveAlerts.count == 1)
    }
}
