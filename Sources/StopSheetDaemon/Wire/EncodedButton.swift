import StopSheetCore
import StopSheetProtocol

/// What the `accessibilityButton` of every station with one step-free status and agency shares,
/// made once per snapshot from the core: each member's value that does not name the station
/// (tone, stepFree, the labels, the dialog's title and buttons) and the sentence's words around
/// the station's name. `answer` puts the name into the sentence, per station.
struct EncodedButton: Sendable {
    let stepFree: StepFreeStatus
    let agency: String
    /// The button with an empty sentence: everything but the station's name.
    private let shared: StopSheet.AccessibilityButton
    /// The dialog's sentence before and after the station's name.
    private let message: (before: String, after: String)

    init(_ stepFree: StepFreeStatus, agency: String) {
        // Nothing kept here depends on the station or, without advisories, on a zone.
        shared = StopSheet.accessibilityButton(stepFree, station: "", agency: agency)
        self.stepFree = stepFree
        self.agency = agency
        message = StopSheet.accessibilityMessage(stepFree, agency: agency)
    }

    /// The button of the station named `stationName`.
    func answer<Advisories, Now>(stationName: String, advisories: Advisories, now: Now) -> Answer.AccessibilityButtonOf<Advisories, Now> {
        let dialog = Answer.Dialog(title: shared.alert.title, message: message.before + stationName + message.after, buttons: shared.alert.buttons)
        return Answer.AccessibilityButtonOf(tone: shared.tone, stepFree: shared.stepFree, accessibilityLabel: shared.accessibilityLabel, symbol: shared.symbol,
                                            alert: dialog, advisories: advisories, now: now)
    }
}
