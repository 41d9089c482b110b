import Testing
@testable import StopSheetCore

@Suite struct StopSheetTests {
    func live(_ id: String, _ kind: AlertKind, description: String = "") -> LiveAlert {
        LiveAlert(alert: RulesTestData.alert(id, [.systemwide], headline: "Headline \(id)", description: description), kind: kind)
    }

    @Test func glyphLabelIsCountAware() {
        #expect(StopSheet.glyphLabel(count: 1) == "1 train service alert")
        #expect(StopSheet.glyphLabel(count: 2) == "2 train service alerts")
        #expect(StopSheet.glyphLabel(count: 17) == "17 train service alerts")
    }

    @Test func dialogItemsNameTheirKind() {
        #expect(StopSheet.dialogItem(live("1", .active, description: "Shuttle buses.")) == "Active train alert: Headline 1\nShuttle buses.")
        #expect(StopSheet.dialogItem(live("2", .planned)) == "Planned train alert: Headline 2")
        #expect(StopSheet.dialogItem(live("3", .unknown, description: "x")) == "Train alert: Headline 3\nx")
    }

    @Test func dialogOrderIsActivePlannedUnknownThenUpstream() {
        let alerts = [live("u1", .unknown), live("p1", .planned), live("a1", .active), live("p2", .planned), live("a2", .active)]
        #expect(StopSheet.dialogOrder(alerts, kind: \.kind).map(\.alert.id) == ["a1", "a2", "p1", "p2", "u1"])
    }

    @Test func glyphShowsTheDialog() throws {
        let sheet = StopSheet(station: RulesTestData.station("40380"), alerts: [live("p", .planned), live("a", .active, description: "Desc")])
        let glyph = try #require(sheet.alertGlyph)
        #expect(glyph.count == 2)
        #expect(glyph.accessibilityLabel == "2 train service alerts")
        #expect(glyph.alert == .init(title: "Train service alerts",
                                     message: "Active train alert: Headline a\nDesc\n\nPlanned train alert: Headline p", buttons: ["Close"]))
    }

    @Test func noGlyphWithoutAlertsOrWithoutAlertData() {
        #expect(StopSheet(station: RulesTestData.station("40380"), alerts: []).alertGlyph == nil)
        #expect(StopSheet(station: RulesTestData.station("40380"), alerts: nil).alertGlyph == nil)
    }

    @Test(arguments: [
        ("40380", StopSheet.Tone.good, "Step-free access is available at Clark/Lake."),
        ("40040", .warn, "CTA currently reports no step-free access at Quincy/Wells."),
        ("40900", .muted, "Accessibility information is currently unavailable for Howard."),
    ])
    func accessibilityButton(stationID: String, tone: StopSheet.Tone, message: String) {
        let button = StopSheet(station: RulesTestData.station(stationID), alerts: nil).accessibilityButton
        #expect(button.tone == tone)
        #expect(button.accessibilityLabel == "Accessibility information")
        #expect(button.symbol == "figure.roll")
        #expect(button.alert == .init(title: "Accessibility", message: message, buttons: ["Close"]))
    }

    @Test func beforeStationsLoadTheSheetIsMutedAndNamedByTheCaller() {
        let named = StopSheet.beforeStationsLoad(stopID: "40380", stationName: " Clark/Lake ")
        #expect(named.stationName == "Clark/Lake")
        #expect(named.accessibilityButton.tone == .muted)
        #expect(named.accessibilityButton.alert.message == "Accessibility information is currently unavailable for Clark/Lake.")
        #expect(named.alertGlyph == nil)
        #expect(StopSheet.beforeStationsLoad(stopID: "40380", stationName: nil).stationName == "40380")
        #expect(StopSheet.beforeStationsLoad(stopID: "40380", stationName: "  ").stationName == "40380")
    }
}
