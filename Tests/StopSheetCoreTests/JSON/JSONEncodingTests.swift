import Testing
@testable import StopSheetCore

@Suite struct JSONStringEncodingTests {
    @Test func escapesExactlyQuoteBackslashAndControlCharacters() {
        #expect(JSON.string("plain").encodedString == #""plain""#)
        #expect(JSON.string("").encodedString == #""""#)
        #expect(JSON.string("a\"b\\c\nd\re\tf\u{0}g\u{1f}h").encodedString == #""a\"b\\c\nd\re\tf\u0000g\u001fh""#)
        #expect(JSON.string("é ✓ \u{7f} 🚇").encodedString == "\"é ✓ \u{7f} 🚇\"")
        #expect(JSON.string("\"\"").encodedString == #""\"\"""#)
    }
}
