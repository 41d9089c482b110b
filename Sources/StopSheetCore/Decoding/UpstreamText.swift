/// Text an upstream wrote, and the one rule of which of its characters are not text: those a
/// terminal would obey instead of show (`isUnsafe`). The daemon's free text made plain
/// (`plain`) holds none; stopsheetctl shows any it prints as escapes (`TerminalText`,
/// `SafeJSON`). Both edges apply this one rule.
public enum UpstreamText {
    /// The characters a terminal acts on instead of printing: C0 controls, DEL and C1 controls;
    /// format characters (bidirectional overrides, isolates and marks, zero-width characters);
    /// line and paragraph separators; private-use, unassigned and surrogate code points.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value >= 0x20 && scalar.value < 0x7F { return false }
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate:
            return true
        default:
            return false
        }
    }

    /// The most characters of a text made plain.
    public static let maxPlainCharacters = 300

    /// A feed's free text as the daemon serves it (a lift unit's description, what it serves):
    /// every unsafe character and every run of whitespace one space, the ends trimmed, at most
    /// `maxPlainCharacters` characters (cut where a space would end it, never after one).
    public static func plain(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        var count = 0
        for scalar in text.unicodeScalars {
            // ASCII's whitespace is below 0x20 or the space: Unicode's properties cost a lookup a scalar.
            if scalar.value == 0x20 || isUnsafe(scalar) || (scalar.value >= 0x80 && scalar.properties.isWhitespace) {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace {
                // A space only with the character after it: the text never ends in one.
                guard count + 1 < maxPlainCharacters else { break }
                out.append(" ")
                count += 1
                pendingSpace = false
            }
            guard count < maxPlainCharacters else { break }
            out.append(scalar)
            count += 1
        }
        return String(out)
    }

    /// Trimmed as upstream fields need it: CTA's carry stray spaces and `\r\n`.
    static func trimmed(_ text: String) -> String {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(text[first...last])
    }

    /// Upstream text for a sentence of ours: its first 40 characters, unsafe ones dropped.
    static func quoted(_ text: String) -> String {
        String(String.UnicodeScalarView(text.prefix(40).unicodeScalars.filter { !isUnsafe($0) }))
    }
}
