import StopSheetDaemon
import Testing

/// `Log.oneLine`: what a log line or a status field may hold of text someone else wrote. Every
/// control character (Unicode's general category Cc: C0, DEL and C1) and the line and paragraph
/// separators are escaped, so no text can end the line or drive the terminal; the rest is kept.
@Suite struct LogOneLineTests {
    @Test func everyControlCharacterAndNothingElseIsEscaped() {
        // The oracle is the standard library's Unicode data, not the function's own ranges.
        for value in UInt32(0)...0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a" + String(Character(scalar)) + "b"
            let escaped = scalar.properties.generalCategory == .control || value == 0x2028 || value == 0x2029
            let written = Log.oneLine(text)
            if escaped {
                #expect(written.hasPrefix("a\\") && !written.unicodeScalars.contains(scalar), "U+\(String(value, radix: 16)): \(written)")
            } else {
                #expect(written == text, "U+\(String(value, radix: 16))")
            }
        }
    }

    @Test func lineBreaksAndTabsAreWrittenAsInSource() {
        #expect(Log.oneLine("a\nb\rc\td\u{1B}e\u{9F}") == "a\\nb\\rc\\td\\u{1B}e\\u{9F}")
    }

    @Test func aLongTextIsCutToItsLimitWithAnEllipsis() {
        // The limit holds the ellipsis (3 bytes of UTF-8) too: the longest prefix that leaves room for it.
        #expect(Log.oneLine("abcdefghij", maxBytes: 8) == "abcde…")
        #expect(Log.oneLine("abcde", maxBytes: 8) == "abcde")
        #expect(Log.oneLine("abcd\nefgh", maxBytes: 8) == "abcd…", "an escape is not cut in two")
        #expect(Log.oneLine(String(repeating: "é", count: 10), maxBytes: 9).utf8.count <= 9)
    }
}
