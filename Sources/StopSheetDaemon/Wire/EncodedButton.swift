import StopSheetCore

/// The encoded `accessibilityButton` value of one step-free status and agency, split where the
/// station's name and the advisories go: `head`, the name escaped without its quotes, `tail`, the
/// encoded advisories array and `}` give the bytes of
/// `StopSheet.accessibilityButton(stepFree, station: name, agency: agency, advisories: …).json(in: zone).encoded`.
///
/// Derived from the button itself rather than spelled out again: it is encoded once for a marker
/// name and cut at the marker. That holds for any name because the encoder escapes byte by byte,
/// so a string's escape is the concatenation of its parts' escapes.
struct EncodedButton: Sendable {
    let head: [UInt8]
    let tail: [UInt8]

    static let available = EncodedButton(.available)
    static let none = EncodedButton(.none)
    static let unknown = EncodedButton(.unknown)

    /// Only the "none" sentence names the agency; CTA's is encoded once, another agency's per call.
    static func `for`(_ stepFree: StepFreeStatus, agency: String = Agency.cta.name) -> EncodedButton {
        switch stepFree {
        case .available: return available
        case .none: return agency == Agency.cta.name ? none : EncodedButton(.none, agency: agency)
        case .unknown: return unknown
        }
    }

    private init(_ stepFree: StepFreeStatus, agency: String = Agency.cta.name) {
        // NUL escapes to `\u0000`, which none of the spec's fixed words can contain.
        let marker = Array(#"\u0000"#.utf8)
        // Without advisories the button holds no time, so any zone gives these bytes.
        let bytes = StopSheet.accessibilityButton(stepFree, station: "\u{0}", agency: agency).json(in: .utc).encoded
        let cuts = bytes.indices.filter { bytes[$0...].starts(with: marker) }
        precondition(cuts.count == 1, "the button's fixed text must not contain the name marker")
        head = Array(bytes[..<cuts[0]])
        // The advisories are the last member: cut their empty array and the closing brace.
        let noAdvisories = Array("[]}".utf8)
        precondition(bytes.suffix(noAdvisories.count).elementsEqual(noAdvisories), "the advisories must end the button")
        tail = Array(bytes[(cuts[0] + marker.count)..<(bytes.count - noAdvisories.count)])
    }
}
