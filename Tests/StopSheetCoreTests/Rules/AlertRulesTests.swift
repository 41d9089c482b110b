import Testing
@testable import StopSheetCore

@Suite struct AlertRulesTests {
    let now = RulesTestData.now

    @Test func ctaKindFollowsTheClock() {
        let alert = RulesTestData.alert("1", [.systemwide], kind: .fromTime, start: now.adding(seconds: 60), end: now.adding(seconds: 120))
        #expect(alert.kind(at: now) == .planned)
        #expect(alert.kind(at: now.adding(seconds: 59)) == .planned)
        #expect(alert.kind(at: now.adding(seconds: 60)) == .active)
        #expect(alert.kind(at: now.adding(seconds: 119)) == .active)
        #expect(alert.kind(at: now.adding(seconds: 120)) == nil)
        #expect(alert.nextChange(after: now) == now.adding(seconds: 60))
        #expect(alert.nextChange(after: now.adding(seconds: 60)) == now.adding(seconds: 120))
        #expect(alert.nextChange(after: now.adding(seconds: 120)) == nil)
    }

    @Test func ctaAlertWithoutStartOrEndIsActive() {
        #expect(RulesTestData.alert("1", [.systemwide], kind: .fromTime).kind(at: now) == .active)
        #expect(RulesTestData.alert("1", [.systemwide], kind: .fromTime, start: now.adding(seconds: -1)).kind(at: now) == .active)
    }

    @Test func statedKindHoldsUntilItsEnd() {
        let planned = RulesTestData.alert("1", [.systemwide], kind: .stated(.planned), start: now.adding(seconds: -600), end: now.adding(seconds: 5))
        #expect(planned.kind(at: now) == .planned)
        #expect(planned.kind(at: now.adding(seconds: 5)) == nil)
        #expect(planned.nextChange(after: now) == now.adding(seconds: 5))
        #expect(RulesTestData.alert("2", [.systemwide], kind: .stated(.unknown)).kind(at: now) == .unknown)
    }

    func applying(_ alerts: [Alert], to stationID: String) -> [String] {
        AlertMatching(alerts).alerts(applyingTo: RulesTestData.station(stationID)).map { alerts[$0].id }
    }

    @Test func aStationAlertAppliesOnlyToTheStationsItNames() {
        // CTA lists "T 40990" + "R Red" for an elevator at 69th: the line is context.
        let elevator = RulesTestData.alert("elevator", [.station("40990"), .route(.red)])
        #expect(applying([elevator], to: "40990") == ["elevator"])
        #expect(applying([elevator], to: "40900") == [])
        let systemwideToo = RulesTestData.alert("named", [.systemwide, .station("40380")])
        #expect(applying([systemwideToo], to: "40380") == ["named"])
        #expect(applying([systemwideToo], to: "40990") == [])
    }

    /// GTFS-realtime may name an entrance (an elevator's street access): that is its station.
    @Test func anEntranceIdNamesItsStation() {
        let platform = Platform(stopID: "P1", stationID: "S", stationName: "Central", routes: [.red], stepFree: true)
        let station = Station(id: "S", name: "Central", platforms: [platform],
                              entrances: [Entrance(id: "E7", stationID: "S", name: "Street lift", stepFree: true)])
        let other = Station(id: "T", name: "Other", platforms: [Platform(stopID: "P2", stationID: "T", stationName: "Other", routes: [.red], stepFree: true)])
        let matching = AlertMatching([RulesTestData.alert("lift", [.station("E7")])])
        #expect(matching.alerts(applyingTo: station) == [0])
        #expect(matching.alerts(applyingTo: other) == [])
    }

    /// An agency's alert reaches that agency's stations, and those whose agency nothing names
    /// (CTA's own formats, a one-agency feed without agency_id), as a systemwide alert would.
    @Test func anAgencyAlertReachesItsStationsAndThoseOfNoNamedAgency() {
        func station(_ id: String, agency: String?) -> Station {
            Station(id: id, name: id, platforms: [Platform(stopID: id + "1", stationID: id, stationName: id, routes: [.red], stepFree: true)], agencyID: agency)
        }
        let matching = AlertMatching([RulesTestData.alert("metro", [.agency("M")])])
        #expect(matching.alerts(applyingTo: station("A", agency: "M")) == [0])
        #expect(matching.alerts(applyingTo: station("B", agency: nil)) == [0])
        #expect(matching.alerts(applyingTo: station("C", agency: "Tram")) == [])
    }

    @Test func aPlatformIdNamesItsStation() {
        let platformAlert = RulesTestData.alert("p", [.station("30074"), .station("40380")])
        #expect(applying([platformAlert], to: "40380") == ["p"])
        #expect(applying([platformAlert], to: "40040") == [])
    }

    @Test func routeAndSystemwideAlerts() {
        let red = RulesTestData.alert("red", [.route(.red)])
        let blue = RulesTestData.alert("blue", [.route(.blue), .route(.blue)])
        let all = RulesTestData.alert("all", [.systemwide])
        let alerts = [red, blue, all]
        #expect(applying(alerts, to: "40990") == ["red", "all"])
        #expect(applying(alerts, to: "40380") == ["blue", "all"])
        #expect(applying(alerts, to: "40900") == ["red", "all"])
    }

    @Test func aPurpleAlertReachesPurpleExpressStations() {
        let purple = RulesTestData.alert("P", [.route(.purple)])
        let express = RulesTestData.alert("Pexp", [.route(.purpleExpress)])
        #expect(applying([purple, express], to: "40040") == ["P", "Pexp"])
        #expect(applying([purple, express], to: "40900") == ["P"])
        #expect(applying([purple, express], to: "40990") == [])
    }

    @Test func anAlertNamingTwoRoutesOfOneStationCountsOnce() {
        let loop = RulesTestData.alert("loop", [.route(.brown), .route(.orange), .route(.pink)])
        #expect(applying([loop], to: "40380") == ["loop"])
    }
}
