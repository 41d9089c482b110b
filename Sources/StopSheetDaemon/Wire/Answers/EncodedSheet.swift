import StopSheetCore
import StopSheetProtocol

/// The `stopSheet` result (`Answer.Sheet`), the one way it is made: a train station's from parts
/// a snapshot encodes once, the sheet before stations load the same way, and a bus stop's.
extension StopSheet {
    /// The sheet before station data has loaded (`beforeStationsLoad`), without `data`.
    static func encodedBeforeStationsLoad(stopID: String, stationName: String?) -> EncodedSheet {
        let sheet = beforeStationsLoad(stopID: stopID, stationName: stationName)
        return EncodedSheet(stationID: sheet.stationID, stationName: sheet.stationName, stepFree: sheet.accessibilityButton.stepFree, agency: Agency.cta.name,
                            alerts: encodedAlertMembers([], encodedAlerts: [], encodedAdvisories: []),
                            now: sheet.accessibilityButton.now.encoded(in: .notKnown))
    }

    /// The encoded `alertGlyph`, `alerts` and advisories values for alerts in dialog order, each
    /// alert and each advisory given already encoded (the snapshot encodes each once).
    static func encodedAlertMembers(_ alerts: [LiveAlert], encodedAlerts: [PreEncoded<Answer.Alert>],
                                    encodedAdvisories: [PreEncoded<Answer.Advisory>]) -> EncodedAlertMembers {
        EncodedAlertMembers(glyph: alertGlyph(alerts).map { PreEncoded($0.answer) }, alerts: PreEncoded(encodedAlerts), advisories: PreEncoded(encodedAdvisories))
    }
}

/// A sheet's `alertGlyph` (nil: `null`), `alerts` and `accessibilityButton.advisories` values,
/// encoded once per set of alerts and shared by its stations.
struct EncodedAlertMembers: Sendable {
    let glyph: PreEncoded<Answer.AlertGlyph>?
    let alerts: PreEncoded<[Answer.Alert]>
    let advisories: PreEncoded<[Answer.Advisory]>
}
