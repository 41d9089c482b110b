import StopSheetCore

/// Text fit for a terminal: what stopsheetctl prints is built only from these, and anything
/// interpolated into one (a headline, a station name, an error from the daemon…) goes through
/// `TerminalText.visible`, the one place where characters that a terminal would obey instead of
/// show are made visible. So upstream text cannot retitle a window, clear the screen, move the
/// cursor or reorder a line, whatever it holds.
struct TerminalText: ExpressibleByStringInterpolation, CustomStringConvertible, Equatable {
    /// Printable scalars and spaces only: no newline, no control, no bidi control.
    private(set) var text: String

    init(stringLiteral value: String) { text = TerminalText.visible(value) }

    init(stringInterpolation: StringInterpolation) { text = stringInterpolation.text }

    /// Untrusted text, made visible.
    init(_ untrusted: String) { text = TerminalText.visible(untrusted) }

    var description: String { text }
    var isEmpty: Bool { text.isEmpty }

    static func + (lhs: TerminalText, rhs: TerminalText) -> TerminalText {
        var joined = lhs
        joined.text += rhs.text
        return joined
    }

    struct StringInterpolation: StringInterpolationProtocol {
        var text = ""
        init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity) }
        // Literals are this program's own text; they are checked too, which costs nothing and
        // keeps the guarantee simple: no raw control character, whoever wrote it.
        mutating func appendLiteral(_ literal: String) { text += TerminalText.visible(literal) }
        mutating func appendInterpolation(_ value: String) { text += TerminalText.visible(value) }
        mutating func appendInterpolation(_ value: TerminalText) { text += value.text }
        mutating func appendInterpolation(_ value: Int) { text += String(value) }
    }

    /// `untrusted` with every character a terminal would act on instead of print shown as an
    /// escape: C0 controls (newline included — callers split lines first where a newline means
    /// something), DEL and C1 controls as `\x1b`, `\x7f`, `\x9b`; bidi overrides and isolates,
    /// other format characters, line and paragraph separators, private-use and unassigned code
    /// points as `U+202E`.
    static func visible(_ untrusted: String) -> String {
        guard untrusted.unicodeScalars.contains(where: UpstreamText.isUnsafe) else { return untrusted }
        var result = ""
        for scalar in untrusted.unicodeScalars {
            guard UpstreamText.isUnsafe(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            result += scalar.value < 0xA0 ? "\\x" + hex(scalar.value, digits: 2) : "U+" + hex(scalar.value, digits: 4)
        }
        return result
    }

    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: digits > 2)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
