import StopSheetCore

/// What the `accessibilityButton` of every station with one step-free status and agency shares,
/// encoded once per snapshot: each member's value that does not name the station (tone,
/// stepFree, the labels, the dialog's title and buttons) and the sentence's words around the
/// station's name, all taken from the core. `StopSheet.encodedMembers` writes them under the
/// protocol's names, and the name into the sentence, per station.
struct EncodedButton: Sendable {
    let stepFree: StepFreeStatus
    let agency: String
    /// The values of `tone`, `stepFree`, `accessibilityLabel`, `symbol`, encoded.
    let tone: [UInt8], stepFreeWord: [UInt8], accessibilityLabel: [UInt8], symbol: [UInt8]
    /// The dialog's `title` and `buttons`, encoded.
    let title: [UInt8], buttons: [UInt8]
    /// The dialog's sentence before and after the station's name.
    let message: (before: String, after: String)

    init(_ stepFree: StepFreeStatus, agency: String) {
        // Nothing written here depends on the station or, without advisories, on a zone.
        let button = StopSheet.accessibilityButton(stepFree, station: "", agency: agency)
        self.stepFree = stepFree
        self.agency = agency
        tone = JSON.string(button.tone.rawValue).encoded
        stepFreeWord = JSON.string(button.stepFree.rawValue).encoded
        accessibilityLabel = JSON.string(button.accessibilityLabel).encoded
        symbol = JSON.string(button.symbol).encoded
        title = JSON.string(button.alert.title).encoded
        buttons = JSON.array(button.alert.buttons.map(JSON.string)).encoded
        message = StopSheet.accessibilityMessage(stepFree, agency: agency)
    }
}
