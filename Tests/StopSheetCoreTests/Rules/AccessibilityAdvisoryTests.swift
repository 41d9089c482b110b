import Testing
@testable import StopSheetCore
import StopSheetTestSupport

/// Issue 12's advisory rule: on the real capture, on hand-made CTA-format elevator notices, on
/// the app format's category, and word by word.
@Suite struct AccessibilityAdvisoryTests {
    static let stations = StationDirectory(platforms: try! StationsDecoder.decode(Fixtures.bytes("L_stops_2021.csv")))

    static func snapshot(_ fixture: String, at now: Instant) throws -> Snapshot {
        Snapshot.build(stations: stations, alerts: try AlertsDecoder.decode(Fixtures.bytes(fixture), chicago: TestZones.chicago), now: now)
    }

    static func sheet(_ snapshot: Snapshot, _ stationID: String) throws -> StopSheet {
        snapshot.stopSheet(for: try #require(stations.station(for: stationID)))
    }

    /// The capture's moment: 2015-02-14 14:35 Chicago time.
    static let captureTime = TestZones.chicago.instant(.init(year: 2015, month: 2, day: 14, hour: 14, minute: 35))

    @Test func realCaptureClarkDivisionHasItsAccessibilityNote() throws {
        let snapshot = try Self.snapshot("alerts_2015-02-14.DERIVED.json", at: Self.captureTime)
        let sheet = try Self.sheet(snapshot, "40630")
        #expect(sheet.accessibilityButton.advisories.map(\.alert.alert.id) == ["23656"])
        let advisory = try #require(sheet.accessibilityButton.advisories.first)
        #expect(advisory.alert.alert.details.impact == "Accessiblity Note")
        #expect(advisory.alert.kind == .active)
        #expect(advisory.restored == false)
        #expect(advisory.alert.alert.headline == "Clark/Division Station Platform Access")
        // The spec's sentence and tone still follow the station field, and the alert stays in the dialog.
        #expect(sheet.accessibilityButton.alert.message == "Step-free access is available at Clark/Division.")
        #expect(sheet.accessibilityButton.tone == .good)
        #expect(sheet.alerts.contains { $0.alert.id == "23656" })
        #expect(sheet.alertGlyph?.alert.message.contains("Active train alert: Clark/Division Station Platform Access") == true)
    }

    @Test func realCaptureHasNoAdvisoryAnywhereElse() throws {
        let snapshot = try Self.snapshot("alerts_2015-02-14.DERIVED.json", at: Self.captureTime)
        // Clark/Lake and 69th are on lines with alerts of their own, none about accessibility.
        for id in ["40380", "40990", "41320"] {
            let sheet = try Self.sheet(snapshot, id)
            #expect(!sheet.alerts.isEmpty, "\(id) has alerts")
            #expect(sheet.accessibilityButton.advisories.isEmpty, "\(id)")
        }
        let withAdvisories = Self.stations.stations.filter { !snapshot.stopSheet(for: $0).accessibilityButton.advisories.isEmpty }
        #expect(withAdvisories.map(\.id) == ["40630"])
    }

    /// 2026-09-30 08:00 Chicago time, the hand-made file's TimeStamp.
    static let handMadeTime = TestZones.chicago.instant(.init(year: 2026, month: 9, day: 30, hour: 8, minute: 0))

    @Test func elevatorOutagesAndReturnsToService() throws {
        let snapshot = try Self.snapshot("alerts_elevators.HANDMADE.json", at: Self.handMadeTime)
        func advisories(_ id: String) throws -> [(String, AlertKind, Bool)] {
            try Self.sheet(snapshot, id).accessibilityButton.advisories.map { ($0.alert.alert.id, $0.alert.kind, $0.restored) }
        }
        // 69th: an outage whose description says when it will be "back in service" is an outage.
        #expect(try advisories("40990").elementsEqual([("117610", .active, false)], by: ==))
        // Clark/Lake: the return to service, not the entrance closure (a Special Note).
        #expect(try advisories("40380").elementsEqual([("117611", .active, true)], by: ==))
        #expect(try Self.sheet(snapshot, "40380").alerts.map(\.alert.id).sorted() == ["117611", "117613"])
        // Belmont: an Accessibility Status that "Returned to Service".
        #expect(try advisories("41320").elementsEqual([("117612", .active, true)], by: ==))
        // O'Hare: a planned outage, Impact in capitals.
        #expect(try advisories("40890").elementsEqual([("117614", .planned, false)], by: ==))
        // Station alerts stay at their stations: another Red Line station hears none of them.
        #expect(try advisories("40900").isEmpty)
        // The tones are the stations' own, whatever the advisories say: all four are step-free
        // in the 2021 stops (ADA true on every platform), outage or not.
        for (id, name) in [("40990", "69th"), ("40380", "Clark/Lake"), ("41320", "Belmont"), ("40890", "O'Hare")] {
            let button = try Self.sheet(snapshot, id).accessibilityButton
            #expect(button.tone.rawValue == "good", "\(name)")
            #expect(button.stepFree.rawValue == "available", "\(name)")
            #expect(button.alert.message == "Step-free access is available at \(name).")
        }
    }

    @Test func handMadeDetailsAreKept() throws {
        let alerts = try AlertsDecoder.decode(Fixtures.bytes("alerts_elevators.HANDMADE.json"), chicago: TestZones.chicago)
        let ohare = try #require(alerts.first { $0.id == "117614" })
        #expect(ohare.details == AlertDetails(impact: "ELEVATOR STATUS", severity: 32, major: true,
                                              url: "http://www.transitchicago.com/travel_information/alert_detail.aspx?AlertId=117614"))
        #expect(alerts.first { $0.id == "117613" }?.details.major == false)
    }

    @Test func appFormatCategory() throws {
        let body = #"""
            {"alerts":[
              {"id":"a1","status":"active","headline":"Elevator at Howard out of service","category":"Accessibility","scopes":[{"type":"station","id":"40900"}],
               "impact":"Elevator Status","severity":40,"major":true,"url":"https://example.test/a1"},
              {"id":"a2","status":"active","headline":"Howard elevator back in service","category":"accessibility","scopes":[{"type":"station","id":"40900"}]},
              {"id":"a3","status":"active","headline":"Weekend work","category":"planned-work","scopes":[{"type":"station","id":"40900"}],
               "severity":"high","major":"yes","impact":7}
            ]}
            """#
        let alerts = try AlertsDecoder.decode(Array(body.utf8), chicago: TestZones.chicago)
        #expect(alerts[0].details == AlertDetails(impact: "Elevator Status", severity: 40, major: true, url: "https://example.test/a1", category: "Accessibility"))
        // Informative fields of another type are read as absent, never as a broken alert set.
        #expect(alerts[2].details == AlertDetails(category: "planned-work"))
        let snapshot = Snapshot.build(stations: Self.stations, alerts: alerts, now: Self.handMadeTime)
        let advisories = try Self.sheet(snapshot, "40900").accessibilityButton.advisories
        #expect(advisories.map(\.alert.alert.id) == ["a1", "a2"])
        #expect(advisories.map(\.restored) == [false, true])
    }

    static func alert(impact: String? = nil, category: String? = nil, effect: String? = nil, headline: String = "Notice") -> Alert {
        Alert(id: "1", kindSource: .stated(.active), headline: headline, description: "", scopes: [.systemwide],
              details: AlertDetails(impact: impact, category: category, effect: effect))
    }

    @Test(arguments: [
        ("Elevator Status", true), ("elevator status", true), ("ELEVATOR STATUS", true), ("Accessibility Status", true),
        ("Accessiblity Note", true), ("accessiblity note", true), ("Elevators", true), (" Elevator-Status ", true),
        ("Planned Work", false), ("Special Note", false), ("Escalator Status", false), ("Elevated Tracks", false), ("", false),
    ])
    func impactWords(impact: String, advisory: Bool) {
        #expect(AccessibilityAdvisory.isAdvisory(Self.alert(impact: impact)) == advisory, "\(impact)")
    }

    @Test func categoryAndGTFSEffect() {
        #expect(AccessibilityAdvisory.isAdvisory(Self.alert(category: " ACCESSIBILITY ")))
        #expect(!AccessibilityAdvisory.isAdvisory(Self.alert(category: "accessibility-other")))
        #expect(AccessibilityAdvisory.isAdvisory(Self.alert(effect: "ACCESSIBILITY_ISSUE")))
        #expect(!AccessibilityAdvisory.isAdvisory(Self.alert(effect: "OTHER_EFFECT")))
        #expect(!AccessibilityAdvisory.isAdvisory(Self.alert()))
    }

    @Test(arguments: [
        ("Elevator at 69th Back in Service", true), ("ELEVATOR AT 69TH BACK-IN-SERVICE", true), ("Elevator  back in   service", true),
        ("Belmont Elevator Returned to Service", true),
        ("Elevator at 69th Temporarily Out-of-Service", false), ("Elevator at 69th out of service; Howard back in service", false),
        ("Elevator service back in operation", false), ("Elevator Status", false),
    ])
    func restoredFromTheHeadline(headline: String, restored: Bool) {
        #expect(AccessibilityAdvisory.isRestored(Self.alert(impact: "Elevator Status", headline: headline)) == restored, "\(headline)")
    }
}
