import StopSheetCore
import StopSheetProtocol

/// A sheet's `alertGlyph` (nil: `null`), `alerts` and `accessibilityButton.advisories` values for
/// alerts in dialog order, encoded once per set of alerts and shared by its stations; each alert
/// and each advisory given already encoded (the snapshot encodes each once).
struct EncodedAlertMembers: Sendable {
    let glyph: PreEncoded<Answer.AlertGlyph>?
    let alerts: PreEncoded<[Answer.Alert]>
    let advisories: PreEncoded<[Answer.Advisory]>

    init(_ alerts: [LiveAlert], encodedAlerts: [PreEncoded<Answer.Alert>], encodedAdvisories: [PreEncoded<Answer.Advisory>]) {
        glyph = StopSheet.alertGlyph(alerts).map { PreEncoded($0.answer) }
        self.alerts = PreEncoded(encodedAlerts)
        advisories = PreEncoded(encodedAdvisories)
    }

    static let none = EncodedAlertMembers([], encodedAlerts: [], encodedAdvisories: [])
}

extension StopSheet {
    /// The sheet before station data has loaded (`beforeStationsLoad`), without `data`.
    static func encodedBeforeStationsLoad(stopID: String, stationName: String?) -> EncodedSheet {
        let sheet = beforeStationsLoad(stopID: stopID, stationName: stationName)
        return EncodedSheet(stationID: sheet.stationID, stationName: sheet.stationName, stepFree: sheet.accessibilityButton.stepFree,
                            from: sheet.accessibilityButton.stepFreeFrom, agency: Agency.cta.name,
                            alerts: .none, now: sheet.accessibilityButton.now.encoded(in: .notKnown))
    }
}
