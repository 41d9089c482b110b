import StopSheetCore
import StopSheetProtocol

/// The `stopSheet` result (`Answer.Sheet`), the one way it is written: a train station's from
/// parts a snapshot encodes once, the sheet before stations load through the same writer, and a
/// bus stop's.
extension StopSheet {
    /// A station's sheet without `data` (each answer adds it): the alert members are shared by
    /// every station with the same applying alerts (a line's stations share one set), the
    /// button's words by every station with the same step-free status and agency; only the id, the
    /// name and the button's sentence are written per station. Tests check that what this writes
    /// decodes to the core's `StopSheet` for every station of the real data, and for names that
    /// need escapes.
    /// `now` is the button's `now`, encoded (`EncodedSnapshot` keeps a quiet station's across
    /// alert refreshes).
    static func encodedMembers(stationID: String, stationName: String, button: EncodedButton, alertMembers: EncodedAlertMembers,
                               now: [UInt8]) -> EncodedMembers {
        let capacity = 400 + 3 * stationName.utf8.count + now.count
        return EncodedMembers(capacity: capacity) { sheet in
            sheet.members(Answer.Sheet.CodingKeys.self) { sheet, key in
                switch key {
                case .stopType: sheet.member(key, word: StopType.train)
                case .stopId: break  // a bus stop's
                case .stationId: sheet.member(key, string: stationID)
                case .stationName: sheet.member(key, string: stationName)
                case .alertGlyph: sheet.member(key, shared: alertMembers.glyph)
                case .accessibilityButton:
                    sheet.object(key) { writeButton(&$0, button, stationName: stationName, alertMembers: alertMembers, now: now) }
                case .alerts: sheet.member(key, shared: alertMembers.alerts)
                case .data: break  // moves with the clock: each answer appends it (`SheetData.sheet`)
                }
            }
        }
    }

    private static func writeButton<Sink>(_ writer: inout JSONWriter<Sink>, _ button: EncodedButton, stationName: String, alertMembers: EncodedAlertMembers,
                                          now: [UInt8]) {
        writer.members(Answer.AccessibilityButton.CodingKeys.self) { writer, key in
            switch key {
            case .tone: writer.member(key, encoded: button.tone)
            case .stepFree: writer.member(key, encoded: button.stepFreeWord)
            case .accessibilityLabel: writer.member(key, encoded: button.accessibilityLabel)
            case .symbol: writer.member(key, encoded: button.symbol)
            case .alert:
                writer.object(key) { dialog in
                    dialog.members(Answer.Dialog.CodingKeys.self) { dialog, key in
                        switch key {
                        case .title: dialog.member(key, encoded: button.title)
                        case .message: dialog.member(key, joined: [button.message.before, stationName, button.message.after])
                        case .buttons: dialog.member(key, encoded: button.buttons)
                        }
                    }
                }
            case .advisories: writer.member(key, shared: alertMembers.advisories)
            case .now: writer.member(key, encoded: now)
            }
        }
    }

    /// The sheet before station data has loaded (`beforeStationsLoad`), without `data`.
    static func encodedMembersBeforeStationsLoad(stopID: String, stationName: String?) -> EncodedMembers {
        let sheet = beforeStationsLoad(stopID: stopID, stationName: stationName)
        return encodedMembers(stationID: sheet.stationID, stationName: sheet.stationName, button: EncodedButton(sheet.accessibilityButton.stepFree, agency: Agency.cta.name),
                              alertMembers: encodedAlertMembers([], encodedAlerts: [], encodedAdvisories: []),
                              now: sheet.accessibilityButton.now.encoded(in: .notKnown))
    }

    /// A bus stop's sheet: nothing at all, ever.
    static func encodedBusMembers(stopID: String) -> EncodedMembers {
        EncodedMembers { sheet in
            sheet.members(Answer.Sheet.CodingKeys.self) { sheet, key in
                switch key {
                case .stopType: sheet.member(key, word: StopType.bus)
                case .stopId: sheet.member(key, string: stopID)
                case .alertGlyph, .accessibilityButton: sheet.null(key)
                case .stationId, .stationName, .alerts, .data: break  // a train station's
                }
            }
        }
    }

    /// The encoded `alertGlyph`, `alerts` and advisories values for alerts in dialog order, each
    /// alert's JSON and each advisory's given already encoded (the snapshot encodes each once).
    static func encodedAlertMembers(_ alerts: [LiveAlert], encodedAlerts: [[UInt8]], encodedAdvisories: [[UInt8]]) -> EncodedAlertMembers {
        EncodedAlertMembers(glyph: AlertGlyph.encoded(alertGlyph(alerts)), alerts: encodedArray(encodedAlerts), advisories: encodedArray(encodedAdvisories))
    }

    private static func encodedArray(_ elements: [[UInt8]]) -> [UInt8] {
        var writer = [UInt8]()
        writer.writeArray { array in
            for element in elements { array.element(encoded: element) }
        }
        return writer
    }
}

/// A sheet's `alertGlyph`, `alerts` and `accessibilityButton.advisories` values, encoded.
struct EncodedAlertMembers {
    let glyph: [UInt8]
    let alerts: [UInt8]
    let advisories: [UInt8]
}
