import StopSheetCore
import StopSheetProtocol

/// What the train sheets of every station with one step-free status and agency share, encoded
/// once per snapshot from the core: the sheet's members, with places (`MemberSlot`) for what concerns
/// one station — its id and name, its alerts' glyph, advisories and list, the button's message
/// (it names the station) and `now` — and for `data`, which each answer fills in; and the
/// message's words around the station's name. `sheet` fills the places per station, so a
/// station's sheet costs copies, not an encoding.
struct EncodedButton: Sendable {
    let stepFree: StepFreeStatus
    let agency: String
    /// The sheet of a station with alerts (a glyph), and of one without (its glyph `null`).
    private let withGlyph: EncodedTemplate, withoutGlyph: EncodedTemplate
    /// The dialog's sentence before and after the station's name.
    private let message: (before: String, after: String)

    /// A train sheet with places for what differs between stations.
    private typealias Form = Answer.SheetOf<MemberSlot<String>, MemberSlot<Answer.AlertGlyph>, Answer.AccessibilityButtonOf<Answer.DialogOf<MemberSlot<String>>,
        MemberSlot<[Answer.Advisory]>, MemberSlot<Answer.StepFreeNow>>, MemberSlot<[Answer.Alert]>, MemberSlot<Answer.SheetData>>

    init(_ stepFree: StepFreeStatus, agency: String) {
        // Nothing kept here depends on the station or, without advisories, on a zone.
        let shared = StopSheet.accessibilityButton(stepFree, station: "", agency: agency)
        self.stepFree = stepFree
        self.agency = agency
        message = StopSheet.accessibilityMessage(stepFree, agency: agency)
        let button = Answer.AccessibilityButtonOf(
            tone: shared.tone, stepFree: shared.stepFree, accessibilityLabel: shared.accessibilityLabel, symbol: shared.symbol,
            alert: Answer.DialogOf(title: shared.alert.title, message: MemberSlot<String>(), buttons: shared.alert.buttons),
            advisories: MemberSlot<[Answer.Advisory]>(), now: MemberSlot<Answer.StepFreeNow>())
        func sheet(glyph: MemberSlot<Answer.AlertGlyph>?) -> EncodedTemplate {
            EncodedTemplate(members: Form(stopType: .train, stopId: nil, stationId: MemberSlot(), stationName: MemberSlot(), alertGlyph: glyph, accessibilityButton: button,
                                          alerts: MemberSlot(), data: MemberSlot()))
        }
        (withGlyph, withoutGlyph) = (sheet(glyph: MemberSlot()), sheet(glyph: nil))
    }

    /// The sheet of the station `stationID` named `stationName`, with its alerts' members and
    /// `now`, and a place for `data`.
    func sheet(stationID: String, stationName: String, alertMembers: EncodedAlertMembers, now: PreEncoded<Answer.StepFreeNow>) -> EncodedMembers {
        typealias Sheet = Answer.SheetKeys
        typealias Button = Answer.AccessibilityButtonKeys
        var fills: [SlotFill] = []
        fills.reserveCapacity(8)
        fills.append(SlotFill(Sheet.stationId, string: stationID))
        fills.append(SlotFill(Sheet.stationName, string: stationName))
        if let glyph = alertMembers.glyph { fills.append(SlotFill(Sheet.alertGlyph, glyph)) }
        fills.append(SlotFill(Answer.DialogKeys.message, joining: message.before, stationName, message.after))
        fills.append(SlotFill(Button.advisories, alertMembers.advisories))
        fills.append(SlotFill(Button.now, now))
        fills.append(SlotFill(Sheet.alerts, alertMembers.alerts))
        fills.append(SlotFill(Sheet.data, later: MemberSlot<Answer.SheetData>()))
        return (alertMembers.glyph == nil ? withoutGlyph : withGlyph).members(capacity: 400 + 3 * stationName.utf8.count + now.bytes.count, filling: fills)
    }
}
