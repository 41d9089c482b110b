import StopSheetCore
import StopSheetProtocol

/// The `stopSheet` result (`Answer.Sheet`), the one way it is made: a train station's from parts
/// a snapshot encodes once, the sheet before stations load the same way, and a bus stop's.
extension StopSheet {
    /// The sheet before station data has loaded (`beforeStationsLoad`), with a hole for `data`.
    static func encodedMembersBeforeStationsLoad(stopID: String, stationName: String?) -> EncodedMembers {
        let sheet = beforeStationsLoad(stopID: stopID, stationName: stationName)
        return EncodedButton(sheet.accessibilityButton.stepFree, from: sheet.accessibilityButton.stepFreeFrom, agency: Agency.cta.name)
            .sheet(stationID: sheet.stationID, stationName: sheet.stationName, alertMembers: encodedAlertMembers([], encodedAlerts: [], encodedAdvisories: []),
                   now: sheet.accessibilityButton.now.encoded(in: .notKnown))
    }

    /// A bus stop's sheet: nothing at all, ever.
    static func encodedBusMembers(stopID: String) -> EncodedMembers {
        EncodedMembers(encoding: Answer.Sheet(stopType: .bus, stopId: stopID, stationId: nil, stationName: nil, alertGlyph: nil,
                                              accessibilityButton: nil, alerts: nil, data: nil))
    }

    /// The encoded `alertGlyph`, `alerts` and advisories values for alerts in dialog order, each
    /// alert and each advisory given already encoded (the snapshot encodes each once).
    static func encodedAlertMembers(_ alerts: [LiveAlert], encodedAlerts: [PreEncoded<Answer.Alert>],
                                    encodedAdvisories: [PreEncoded<Answer.Advisory>]) -> EncodedAlertMembers {
        EncodedAlertMembers(glyph: alertGlyph(alerts).map { PreEncoded($0.answer) }, alerts: PreEncoded(encodedAlerts), advisories: PreEncoded(encodedAdvisories))
    }
}

/// A sheet's `alertGlyph` (nil: `null`), `alerts` and `accessibilityButton.advisories` values,
/// encoded. One object per set of alerts, shared by its stations: a snapshot tells by identity
/// whether a station's sheet was made with it.
final class EncodedAlertMembers: Sendable {
    let glyph: PreEncoded<Answer.AlertGlyph>?
    let alerts: PreEncoded<[Answer.Alert]>
    let advisories: PreEncoded<[Answer.Advisory]>

    init(glyph: PreEncoded<Answer.AlertGlyph>?, alerts: PreEncoded<[Answer.Alert]>, advisories: PreEncoded<[Answer.Advisory]>) {
        (self.glyph, self.alerts, self.advisories) = (glyph, alerts, advisories)
    }
}
