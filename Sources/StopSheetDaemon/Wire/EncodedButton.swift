import StopSheetCore

/// What the `accessibilityButton` of every station with one step-free status and agency shares,
/// encoded once per snapshot: its members before the dialog (tone, stepFree, accessibilityLabel,
/// symbol), the dialog's title and buttons and its sentence's words around the station's name,
/// all taken from the core. `StopSheet.encodedMembers` writes the name into the sentence per station.
struct EncodedButton: Sendable {
    let stepFree: StepFreeStatus
    let agency: String
    let fixed: EncodedMembers
    let title: String
    /// The dialog's sentence before and after the station's name.
    let message: (before: String, after: String)
    let buttons: [UInt8]

    init(_ stepFree: StepFreeStatus, agency: String) {
        // Nothing written here depends on the station or, without advisories, on a zone.
        let button = StopSheet.accessibilityButton(stepFree, station: "", agency: agency)
        self.stepFree = stepFree
        self.agency = agency
        fixed = EncodedMembers { members in
            members.member(.tone, string: button.tone.rawValue)
            members.member(.stepFree, string: button.stepFree.rawValue)
            members.member(.accessibilityLabel, string: button.accessibilityLabel)
            members.member(.symbol, string: button.symbol)
        }
        title = button.alert.title
        message = StopSheet.accessibilityMessage(stepFree, agency: agency)
        buttons = JSON.array(button.alert.buttons.map(JSON.string)).encoded
    }
}
