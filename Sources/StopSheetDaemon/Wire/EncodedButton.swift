import StopSheetCore

/// What the `accessibilityButton` of every station with one step-free status and agency shares,
/// made once per snapshot: the button without its station (tone, stepFree, labels, the dialog's
/// title and buttons) and its sentence's words around the station's name, all taken from the
/// core. `StopSheet.encodedMembers` writes the name into the sentence per station.
struct EncodedButton: Sendable {
    let stepFree: StepFreeStatus
    let agency: String
    /// The button with no station named and no advisories.
    let button: StopSheet.AccessibilityButton
    /// The dialog's sentence before and after the station's name.
    let message: (before: String, after: String)

    init(_ stepFree: StepFreeStatus, agency: String) {
        self.stepFree = stepFree
        self.agency = agency
        button = StopSheet.accessibilityButton(stepFree, station: "", agency: agency)
        message = StopSheet.accessibilityMessage(stepFree, agency: agency)
    }
}
