import Testing
@testable import StopSheetCore

@Suite struct JSONStringEncodingTests {
    @Test func escapesExactlyQuoteBackslashAndControlCharacters() {
        #expect(JSON.string("plain").encodedString == #""plain""#)
        #expect(JSON.string("").encodedString == #""""#)
        #expect(JSON.string("a\"b\\c\nd\re\tf\u{0}g\u{1f}h").encodedString == #""a\"b\\c\nd\re\tf\u0000g\u001fh""#)
        #expect(JSON.string("é ✓ ¡ \u{a0} 🚇 \u{2027}\u{202a}").encodedString == "\"é ✓ ¡ \u{a0} 🚇 \u{2027}\u{202a}\"")
        #expect(JSON.string("\"\"").encodedString == #""\"\"""#)
    }

    /// Valid JSON raw, but terminals act on DEL and C1 controls and JavaScript ends a line at
    /// U+2028/U+2029: the encoder escapes them, and the parser reads the escapes back.
    @Test func escapesDELC1ControlsAndLineSeparators() throws {
        let text = "a\u{7f}b\u{80}c\u{9b}[2Jd\u{9f}e\u{2028}f\u{2029}g"
        #expect(JSON.string(text).encodedString == #""a\u007fb\u0080c\u009b[2Jd\u009fe\u2028f\u2029g""#)
        #expect(try JSONParser.parse(JSON.string(text).encodedString) == .string(text))
        // At the very end, and alone.
        #expect(JSON.string("\u{85}").encodedString == #""\u0085""#)
        #expect(JSON.string("x\u{2029}").encodedString == #""x\u2029""#)
        // The escape of a concatenation is the concatenation of the escapes.
        let parts = ["St\u{9b}a", "\u{2028}", "tion\u{7f}"]
        let whole = JSON.string(parts.joined()).encoded
        let pieces = parts.flatMap { JSON.string($0).encoded.dropFirst().dropLast() }
        #expect(Array(whole.dropFirst().dropLast()) == pieces)
    }

    /// Plain text is passed over eight bytes at a time: a character that needs an escape (or one
    /// that looks as if it might) is found at every offset in and around those eight-byte words,
    /// as a reference that looks at each code point alone finds it.
    @Test func everyCharacterIsEncodedAsItsOwnEscapeWhereverItFallsInTheText() {
        func reference(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar.value {
                case 0x22: out += "\\\""
                case 0x5C: out += "\\\\"
                case 0x0A: out += "\\n"
                case 0x0D: out += "\\r"
                case 0x09: out += "\\t"
                case 0..<0x20, 0x7F, 0x80...0x9F, 0x2028, 0x2029:
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        let characters = ["\u{0}", "\u{1f}", "\"", "\\", "\n", "\u{7f}", "\u{80}", "\u{9f}", "\u{2028}", "\u{2029}",
                          "é", "\u{a0}", "\u{2027}", "🚇", " ", "~", "!", "#", "[", "]", "|"]
        for character in characters {
            for offset in 0..<20 {
                let text = String(repeating: "a", count: offset) + character + String(repeating: "b", count: 23 - offset)
                #expect(JSON.string(text).encodedString == reference(text), "\(character.unicodeScalars.map(\.value)) at \(offset)")
            }
        }
    }
}

