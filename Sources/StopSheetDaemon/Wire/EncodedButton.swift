import StopSheetCore
import StopSheetProtocol

/// What the train sheets of every station with one step-free status, its source and agency share, encoded
/// once per snapshot from the core: the sheet's members (`EncodedTemplate`), with slots for what
/// concerns one station — its id and name, its alerts' glyph, list and advisories, the button's
/// message (it names the station) and `now` — and for `data`, left for each answer to give; and
/// the message's words around the station's name. `sheet` fills the slots per station, so a
/// station's sheet costs copies, not an encoding.
struct EncodedButton: Sendable {
    let stepFree: StepFreeStatus
    let from: StepFreeNow.Basis
    let agency: String
    /// The sheet of a station with alerts (a glyph), and of one without (its glyph `null`).
    private let withGlyph: EncodedTemplate<Answer.Sheet>, withoutGlyph: EncodedTemplate<Answer.Sheet>
    /// The dialog's sentence before and after the station's name.
    private let message: (before: String, after: String)

    /// The slots of a train sheet.
    private enum Slots {
        static let stationID = Slot<String>(index: 0), stationName = Slot<String>(index: 1), message = Slot<String>(index: 2)
        static let advisories = Slot<PreEncoded<[Answer.Advisory]>>(index: 3), now = Slot<PreEncoded<Answer.StepFreeNow>>(index: 4)
        static let alerts = Slot<PreEncoded<[Answer.Alert]>>(index: 5), data = Slot<PreEncoded<Answer.SheetData>>(index: 6)
        static let glyph = Slot<PreEncoded<Answer.AlertGlyph>>(index: 7)
    }

    init(_ stepFree: StepFreeStatus, from: StepFreeNow.Basis, agency: String) {
        // Nothing kept here depends on the station or, without advisories, on a zone.
        let shared = StopSheet.accessibilityButton(stepFree, station: "", agency: agency, from: from)
        self.stepFree = stepFree
        self.from = from
        self.agency = agency
        message = StopSheet.accessibilityMessage(stepFree, agency: agency)
        let button = Answer.AccessibilityButtonOf(tone: shared.tone, stepFree: shared.stepFree, stepFreeFrom: shared.stepFreeFrom,
                                                  accessibilityLabel: shared.accessibilityLabel, symbol: shared.symbol,
                                                  alert: Answer.DialogOf(title: shared.alert.title, message: Slots.message, buttons: shared.alert.buttons),
                                                  advisories: Slots.advisories, now: Slots.now)
        func sheet(glyph: Slot<PreEncoded<Answer.AlertGlyph>>?) -> EncodedTemplate<Answer.Sheet> {
            EncodedTemplate(members: Answer.SheetOf(stopType: .train, stopId: nil, stationId: Slots.stationID, stationName: Slots.stationName, alertGlyph: glyph,
                                                    accessibilityButton: button, alerts: Slots.alerts, data: Slots.data),
                            slots: glyph == nil ? 7 : 8)
        }
        (withGlyph, withoutGlyph) = (sheet(glyph: Slots.glyph), sheet(glyph: nil))
    }

    /// The sheet of the station `stationID` named `stationName`, with a hole for `data` (each
    /// answer gives it): the alert members are shared by every station with the same applying
    /// alerts (a line's stations share one set), the rest by every station with this button; only
    /// the id, the name and the button's sentence are written per station. `now` is the button's,
    /// encoded (`EncodedSnapshot` keeps a quiet station's across alert refreshes). Tests check that
    /// this writes the bytes of the core's `StopSheet` as an `Answer.Sheet` for every station of the
    /// real data, and for names that need escapes.
    func sheet(stationID: String, stationName: String, alertMembers: EncodedAlertMembers, now: PreEncoded<Answer.StepFreeNow>) -> EncodedMembers {
        (alertMembers.glyph == nil ? withoutGlyph : withGlyph).members(capacity: 400 + 3 * stationName.utf8.count) { fill in
            fill.put(Slots.stationID, stationID)
            fill.put(Slots.stationName, stationName)
            if let glyph = alertMembers.glyph { fill.put(Slots.glyph, glyph) }
            fill.put(Slots.message, joining: message.before, stationName, message.after)
            fill.put(Slots.advisories, alertMembers.advisories)
            fill.put(Slots.now, now)
            fill.put(Slots.alerts, alertMembers.alerts)
            fill.leave(Slots.data)  // it moves with the clock: each answer gives it
        }
    }
}
