import StopSheetCore
import StopSheetProtocol

/// One station's `stopSheet` result assembled from parts a snapshot encodes once.
extension StopSheet {
    /// The members of `json(in:).encoded` for this station, byte for byte, without `data` (each
    /// answer adds it): the alert members are shared by every station with the same applying
    /// alerts (a line's stations share one set), the button's fixed members by every station with
    /// the same step-free status and agency; only the id, the name and the button's sentence are
    /// encoded per station. Tests check the two paths agree for every station of the real data and
    /// for names that need escapes.
    static func encodedMembers(stationID: String, stationName: String, button: EncodedButton, alertMembers: EncodedAlertMembers,
                               now: [UInt8]) -> EncodedMembers {
        let capacity = 400 + 3 * stationName.utf8.count + now.count
        return EncodedMembers(capacity: capacity) { sheet in
            sheet.member(.stopType, encoded: trainType)
            sheet.member(.stationId, string: stationID)
            sheet.member(.stationName, string: stationName)
            sheet.member(.alertGlyph, shared: alertMembers.glyph)
            sheet.object(.accessibilityButton) { buttonMembers in
                buttonMembers.members(button.fixed)
                buttonMembers.object(.alert) { dialog in
                    dialog.member(.title, string: button.title)
                    dialog.member(.message, joining: button.message.before, stationName, button.message.after)
                    dialog.member(.buttons, encoded: button.buttons)
                }
                buttonMembers.member(.advisories, shared: alertMembers.advisories)
                buttonMembers.member(.now, encoded: now)
            }
            sheet.member(.alerts, shared: alertMembers.alerts)
        }
    }

    /// The encoded `alertGlyph`, `alerts` and advisories values for alerts in dialog order, each
    /// alert's JSON and each advisory's given already encoded (the snapshot encodes each once).
    static func encodedAlertMembers(_ alerts: [LiveAlert], encodedAlerts: [[UInt8]], encodedAdvisories: [[UInt8]]) -> EncodedAlertMembers {
        EncodedAlertMembers(glyph: (alertGlyph(alerts)?.json ?? .null).encoded, alerts: encodedArray(encodedAlerts),
                            advisories: encodedArray(encodedAdvisories))
    }

    private static func encodedArray(_ elements: [[UInt8]]) -> [UInt8] {
        var writer = [UInt8]()
        writer.writeArray { array in
            for element in elements { array.element(encoded: element) }
        }
        return writer
    }

    private static let trainType = JSON.string(StopType.train.rawValue).encoded
}

/// A sheet's `alertGlyph`, `alerts` and `accessibilityButton.advisories` values, encoded.
struct EncodedAlertMembers {
    let glyph: [UInt8]
    let alerts: [UInt8]
    let advisories: [UInt8]
}
