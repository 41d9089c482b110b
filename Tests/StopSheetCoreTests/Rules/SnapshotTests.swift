import Testing
@testable import StopSheetCore

@Suite struct SnapshotTests {
    let now = RulesTestData.now

    @Test func aSystemwideAlertReachesEveryStation() {
        let snapshot = Snapshot.build(stations: RulesTestData.directory, alerts: [RulesTestData.alert("all", [.systemwide])], now: now)
        for station in RulesTestData.directory.stations {
            #expect(snapshot.stopSheet(for: station).alertGlyph?.count == 1, "\(station.id)")
        }
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

    @Test func withoutAlertDataNoStationHasAGlyph() {
        let snapshot = Snapshot.build(stations: RulesTestData.directory, alerts: nil, now: now)
        let sheet = snapshot.stopSheet(for: RulesTestData.station("40380"))
        #expect(sheet.alertGlyph == nil)
        #expect(sheet.accessibilityButton.tone == .good)
    }

    @Test func withoutStationsAlertsAreStillLive() {
        let snapshot = Snapshot.build(stations: nil, alerts: [RulesTestData.alert("all", [.systemwide])], now: now)
        #expect(snapshot.stations == nil)
        #expect(snapshot.liveAlerts.count == 1)
    }
}
