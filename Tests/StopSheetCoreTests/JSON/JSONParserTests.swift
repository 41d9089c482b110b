import StopSheetCore
import Testing

@Suite struct JSONParserTests {
    func parse(_ text: String, maxDepth: Int = JSONParser.defaultMaxDepth) throws(JSONParser.Failure) -> JSON {
        try JSONParser.parse(text, maxDepth: maxDepth)
    }

    func parseFailure(_ bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth, maxMembers: Int = .max) -> JSONParser.Failure? {
        do {
            _ = try JSONParser.parse(bytes, maxDepth: maxDepth, maxMembers: maxMembers)
            return nil
        } catch {
            return error
        }
    }

    func parseFailure(_ text: String) -> JSONParser.Failure? { parseFailure(Array(text.utf8)) }

    @Test func scalarsAndWhitespace() throws {
        #expect(try parse(" \t\r\n null \n") == .null)
        #expect(try parse("true") == .bool(true))
        #expect(try parse("false") == .bool(false))
        #expect(try parse(#""x""#) == .string("x"))
        #expect(try parse("[]") == .array([]))
        #expect(try parse("{ }") == .object(JSONObject()))
    }

    @Test func numbersKeepTheirLiteralText() throws {
        for literal in ["0", "-0", "1.50", "12345678901234567890", "1e400", "-2.5E-3", "1E+2"] {
            #expect(try parse(literal) == .number(literal))
        }
    }

    @Test(arguments: ["01", "-", "-a", "1.", ".5", "1e", "1e+", "+1", "0x10", "NaN", "Infinity", "1.e3"])
    func invalidNumbers(text: String) {
        #expect(parseFailure(text) != nil)
    }

    @Test func numberFailureOffsets() {
        #expect(parseFailure("[1.]") == .invalidNumber(offset: 1))
        #expect(parseFailure("01") == .trailingBytes(offset: 1))
        #expect(parseFailure("[-]") == .invalidNumber(offset: 1))
    }

    @Test func escapes() throws {
        #expect(try parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
        #expect(try parse(#""\u0041\u00e9\u20AC""#) == .string("Aé€"))
        #expect(try parse(#""\uD83D\uDE87""#) == .string("🚇"))
        // Hex digits in either case, to the ends of each range.
        #expect(try parse(#""\u00FF\u00ff\u0009""#) == .string("ÿÿ\t"))
        #expect(try parse(#""\u0000""#) == .string("\u{0}"))
        #expect(try parse(#""a\nb é""#) == .string("a\nb é"))
    }

    @Test func invalidEscapes() {
        #expect(parseFailure(#""\x""#) == .invalidEscape(offset: 2))
        #expect(parseFailure(#""\u12G4""#) == .invalidEscape(offset: 5))
        #expect(parseFailure(#""\uD800""#) == .invalidEscape(offset: 7))  // high surrogate alone
        #expect(parseFailure(#""\uD800\u0041""#) == .invalidEscape(offset: 13))  // not followed by a low one
        #expect(parseFailure(#""\uDC00""#) == .invalidEscape(offset: 7))  // low surrogate alone
        #expect(parseFailure(#""\u12""#) != nil)  // reported as an early end: the hex needs 4 bytes
        #expect(parseFailure(#""\u12"#) == .unexpectedEnd)
        // A high surrogate whose backslash is the last byte: refused as one alone, read no further.
        #expect(parseFailure(#""\uD800\"#) == .invalidEscape(offset: 7))
    }

    /// A pair is a high surrogate (D800–DBFF) then a low one (DC00–DFFF), both ranges to their
    /// last code unit; a high one followed by anything else, the code unit just past the low
    /// range or another high one, is refused where the second escape ends.
    @Test func surrogatePairsToTheEndsOfTheirRanges() throws {
        #expect(try parse(#""\uD800\uDC00""#) == .string("\u{10000}"))
        #expect(try parse(#""\uDBFF\uDFFF""#) == .string("\u{10FFFF}"))
        #expect(parseFailure(#""\uD800\uE000""#) == .invalidEscape(offset: 13))
        #expect(parseFailure(#""\uD800\uDBFF""#) == .invalidEscape(offset: 13))
        #expect(parseFailure(#""\uDBFF\uDBFF""#) == .invalidEscape(offset: 13))
    }

    @Test func controlCharactersMustBeEscaped() {
        #expect(parseFailure("\"a\nb\"") == .unexpectedByte(0x0A, offset: 2))
        #expect(parseFailure("\"\\n\tb\"") == .unexpectedByte(0x09, offset: 3))
        #expect(parseFailure("\"\u{7F}\"") == nil)  // DEL is allowed
    }

    @Test func invalidUTF8InStrings() {
        for sequence: [UInt8] in [[0xE9], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF0, 0x9F, 0x9A], [0x80]] {
            #expect(parseFailure([0x22] + sequence + [0x22]) == .invalidUTF8(offset: 0))
            // Also after an escape, on the slow path.
            #expect(parseFailure(Array(#"["a","\n"#.utf8) + sequence + [0x22, 0x5D]) == .invalidUTF8(offset: 5))
        }
    }

    @Test func bytesOutsideStrings() {
        #expect(parseFailure([0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == .unexpectedByte(0xEF, offset: 0))
        #expect(parseFailure("\u{0C}{}") == .unexpectedByte(0x0C, offset: 0))  // form feed is not JSON whitespace
        #expect(parseFailure("\u{A0}{}") == .unexpectedByte(0xC2, offset: 0))
    }

    @Test func structuralErrors() {
        #expect(parseFailure("") == .unexpectedEnd)
        #expect(parseFailure("   ") == .unexpectedEnd)
        #expect(parseFailure("[1,]") == .unexpectedByte(UInt8(ascii: "]"), offset: 3))
        #expect(parseFailure(#"{"a":1,}"#) == .unexpectedByte(UInt8(ascii: "}"), offset: 7))
        #expect(parseFailure(#"{"a" 1}"#) == .unexpectedByte(UInt8(ascii: "1"), offset: 5))
        #expect(parseFailure(#"{1:2}"#) == .unexpectedByte(UInt8(ascii: "1"), offset: 1))
        #expect(parseFailure("[1 2]") == .unexpectedByte(UInt8(ascii: "2"), offset: 3))
        #expect(parseFailure("[1x]") == .unexpectedByte(UInt8(ascii: "x"), offset: 2))
        #expect(parseFailure("{} {}") == .trailingBytes(offset: 3))
        #expect(parseFailure("trUe") == .unexpectedByte(UInt8(ascii: "U"), offset: 2))
        #expect(parseFailure("tru") == .unexpectedEnd)
        #expect(parseFailure(#"{"a""#) == .unexpectedEnd)
        #expect(parseFailure(#"["a"#) == .unexpectedEnd)
        #expect(parseFailure("[") == .unexpectedEnd)
    }

    @Test func depthLimitIsExact() throws {
        let limit = 64
        let atLimit = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(parseFailure(atLimit) == nil)
        let overLimit = "[" + atLimit + "]"
        #expect(parseFailure(overLimit) == .tooDeep(limit: 64))
        let objects = String(repeating: #"{"a":"#, count: 3) + "1" + String(repeating: "}", count: 3)
        #expect(try parse(objects, maxDepth: 3)["a"]?["a"]?["a"] == .number("1"))
        #expect(parseFailure(Array(objects.utf8), maxDepth: 2) == .tooDeep(limit: 2))
        #expect(parseFailure([UInt8](repeating: UInt8(ascii: "["), count: 100_000)) == .tooDeep(limit: 64))
        #expect(parseFailure([UInt8](repeating: UInt8(ascii: "{"), count: 100_000)) == .unexpectedByte(UInt8(ascii: "{"), offset: 1))
    }

    @Test func memberLimitIsExactAndStopsAtTheFirstMemberPast() throws {
        #expect(parseFailure(Array("[1,2,3]".utf8), maxMembers: 3) == nil)
        #expect(parseFailure(Array(#"{"a":1,"b":2,"c":3}"#.utf8), maxMembers: 3) == nil)
        #expect(parseFailure(Array("[1,2,3,4]".utf8), maxMembers: 3) == .tooManyMembers(limit: 3))
        #expect(parseFailure(Array(#"{"a":1,"b":2,"c":3,"d":4}"#.utf8), maxMembers: 3) == .tooManyMembers(limit: 3))
        // Nested: each array or object is counted on its own.
        #expect(parseFailure(Array("[[1,2],[3,4],[5,6]]".utf8), maxMembers: 3) == nil)
        // Cut off at the member past the limit: what follows it is never read, broken or not.
        #expect(parseFailure(Array("[1,2,3,4,!".utf8), maxMembers: 3) == .tooManyMembers(limit: 3))
    }

    @Test func objectsKeepOrderAndTheLastDuplicateWins() throws {
        let value = try parse(#"{"b":1,"a":2,"b":3}"#)
        #expect(value.objectValue?.keys == ["b", "a", "b"])
        #expect(value["b"] == .number("3"))
        #expect(value["missing"] == nil)
        #expect(value == ["b": 1, "a": 2, "b": 3])
        #expect(value != ["a": 2, "b": 3])
    }

    @Test func accessors() throws {
        #expect(JSON.number("2").intValue == 2)
        #expect(JSON.number("2.0").intValue == 2)
        #expect(JSON.number("2e2").intValue == 200)
        #expect(JSON.number("2.5").intValue == nil)
        #expect(JSON.number("12345678901234567890").intValue == nil)
        #expect(JSON.string("2").intValue == nil)
        #expect(JSON.string("40380").scalarText == "40380")
        #expect(JSON.number("40380").scalarText == "40380")
        #expect(JSON.bool(true).scalarText == nil)
        #expect(JSON.null.isNull)
        #expect(JSON.string("x")["key"] == nil)
    }

    @Test func encodingRoundTrips() throws {
        let value: JSON = ["text": "quote \" backslash \\ newline \n tab \t bell \u{07} é 🚇", "n": .number("1.50"),
                           "list": [true, false, nil, ["nested": []]]]
        #expect(value.encodedString.contains("\n") == false)
        #expect(try JSONParser.parse(value.encoded) == value)
        #expect(JSON.string("\u{07}").encodedString == #""\u0007""#)
    }

    @Test func failureDescriptions() {
        #expect(JSONParser.Failure.unexpectedByte(0x3C, offset: 0).description == "unexpected byte 0x3c at offset 0")
        #expect(JSONParser.Failure.trailingBytes(offset: 9).description == "unexpected data after the JSON value at offset 9")
    }
}
