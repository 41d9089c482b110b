import StopSheetCore
import StopSheetTestSupport
import Testing

/// Format detection and the failures of bodies that are not alerts at all.
@Suite struct AlertsDecoderTests {
    @Test func detectsBothFormats() throws {
        #expect(try AlertsDecoder.decode(Fixtures.bytes("alerts_2015-02-14.DERIVED.json"), chicago: TestZones.chicago).count == 17)
        let app = #"{"alerts":[{"id":"1","status":"active","headline":"H","scopes":[{"type":"systemwide"}]}]}"#
        #expect(try AlertsDecoder.decode(bytes(app), chicago: TestZones.chicago).map(\.kindSource) == [.stated(.active)])
    }

    @Test(arguments: ["", "   \r\n\t", "\u{FEFF}", "\u{FEFF}\n"])
    func emptyBody(text: String) {
        #expect(failure { try AlertsDecoder.decode(bytes(text), chicago: TestZones.chicago) } == .unrecognisedFormat("empty body"))
    }

    @Test func htmlErrorPage() {
        let page = "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"
        #expect(failure { try AlertsDecoder.decode(bytes(page), chicago: TestZones.chicago) } == .unrecognisedFormat("body is not JSON (starts with '<')"))
        #expect(failure { try AlertsDecoder.decode(bytes("\n  " + page), chicago: TestZones.chicago) } == .unrecognisedFormat("body is not JSON (starts with '<')"))
    }

    @Test func ctaXMLIsNamedWithTheFix() {
        // The real XML response, BOM and all: the URL lacks outputType=JSON.
        #expect(failure { try AlertsDecoder.decode(Fixtures.bytes("alerts_2015-02-14.xml"), chicago: TestZones.chicago) }
            == .unrecognisedFormat("body is CTA Alerts XML (starts with '<'); ask for outputType=JSON"))
    }

    @Test func plainTextIsNotJSON() {
        #expect(failure { try AlertsDecoder.decode(bytes("Service Unavailable"), chicago: TestZones.chicago) } == .unrecognisedFormat("body is not JSON (starts with 'S')"))
        #expect(failure { try AlertsDecoder.decode(bytes("é"), chicago: TestZones.chicago) } == .unrecognisedFormat("body is not JSON (starts with 'é')"))
        // Not JSON whitespace, so not skipped; shown by code point.
        #expect(failure { try AlertsDecoder.decode(bytes("\u{0C}{}"), chicago: TestZones.chicago) } == .unrecognisedFormat("body is not JSON (starts with U+000C)"))
        #expect(failure { try AlertsDecoder.decode(bytes("\u{0}"), chicago: TestZones.chicago) } == .unrecognisedFormat("body is not JSON (starts with U+0000)"))
        #expect(failure { try AlertsDecoder.decode(bytes("\u{A0}{}"), chicago: TestZones.chicago) } == .unrecognisedFormat("body is not JSON (starts with U+00A0)"))
        #expect(failure { try AlertsDecoder.decode(bytes("\u{FEFF}\u{FEFF}{}"), chicago: TestZones.chicago) } == .unrecognisedFormat("body is not JSON (starts with U+FEFF)"))
    }

    @Test(arguments: [
        ("[]", "JSON root is an array; expected an object with 'CTAAlerts' or 'alerts'"),
        ("42", "JSON root is a number; expected an object with 'CTAAlerts' or 'alerts'"),
        (#""alerts""#, "JSON root is a string; expected an object with 'CTAAlerts' or 'alerts'"),
        ("null", "JSON root is null; expected an object with 'CTAAlerts' or 'alerts'"),
        ("{}", "JSON root is an empty object; expected an object with 'CTAAlerts' or 'alerts'"),
        (#"{"stops":[],"a":1,"b":2,"c":3,"d":4,"e":5}"#, "JSON root object has keys 'stops', 'a', 'b', 'c', 'd'; expected an object with 'CTAAlerts' or 'alerts'"),
        (#"{"ctaalerts":{}}"#, "JSON root object has keys 'ctaalerts'; expected an object with 'CTAAlerts' or 'alerts'"),
    ])
    func jsonOfAnotherShape(text: String, hint: String) {
        #expect(failure { try AlertsDecoder.decode(bytes(text), chicago: TestZones.chicago) } == .unrecognisedFormat(hint))
    }

    @Test func everyTruncationOfTheRealFileFailsAsUnexpectedEnd() {
        let body = Fixtures.bytes("alerts_2015-02-14.DERIVED.json")
        var cut = 1
        while cut < body.count - 1 {
            #expect(failure { try AlertsDecoder.decode(Array(body[..<cut]), chicago: TestZones.chicago) } == .invalidJSON(.unexpectedEnd), "cut at \(cut)")
            cut += 487
        }
        // Only the trailing newline can go.
        #expect(failure { try AlertsDecoder.decode(Array(body.dropLast()), chicago: TestZones.chicago) } == nil)
    }

    @Test func syntaxErrors() {
        #expect(failure { try AlertsDecoder.decode(bytes(#"{"alerts":[],}"#), chicago: TestZones.chicago) } == .invalidJSON(.unexpectedByte(UInt8(ascii: "}"), offset: 13)))
        #expect(failure { try AlertsDecoder.decode(bytes(#"{"alerts":[]} x"#), chicago: TestZones.chicago) } == .invalidJSON(.trailingBytes(offset: 14)))
        #expect(failure { try AlertsDecoder.decode(bytes(#"{'alerts':[]}"#), chicago: TestZones.chicago) } == .invalidJSON(.unexpectedByte(UInt8(ascii: "'"), offset: 1)))
    }

    @Test func deepNestingIsRefusedNotRecursedInto() {
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: 10_000)
        #expect(failure { try AlertsDecoder.decode(deep, chicago: TestZones.chicago) } == .invalidJSON(.tooDeep(limit: 64)))
        let deepInside = bytes(#"{"CTAAlerts":"#) + deep
        #expect(failure { try AlertsDecoder.decode(deepInside, chicago: TestZones.chicago) } == .invalidJSON(.tooDeep(limit: 64)))
        let deepObjects = bytes(String(repeating: #"{"a":"#, count: 10_000))
        #expect(failure { try AlertsDecoder.decode(deepObjects, chicago: TestZones.chicago, limits: DecodingLimits(maxDepth: 16)) } == .invalidJSON(.tooDeep(limit: 16)))
    }

    @Test func invalidUTF8AnywhereFails() {
        let valid = bytes(#"{"alerts":[{"id":"1","headline":"Caf"#)
        let rest = bytes(#"","scopes":[{"type":"systemwide"}]}]}"#)
        #expect(failure { try AlertsDecoder.decode(valid + [0xC3, 0xA9] + rest, chicago: TestZones.chicago) } == nil)
        #expect(failure { try AlertsDecoder.decode(valid + [0xE9] + rest, chicago: TestZones.chicago) } == .invalidUTF8(offset: valid.count))  // Latin-1 é
        #expect(failure { try AlertsDecoder.decode(valid + [0xC0, 0xAF] + rest, chicago: TestZones.chicago) } == .invalidUTF8(offset: valid.count))  // overlong '/'
        #expect(failure { try AlertsDecoder.decode(valid + [0xED, 0xA0, 0x80] + rest, chicago: TestZones.chicago) } == .invalidUTF8(offset: valid.count))  // UTF-16 surrogate
        #expect(failure { try AlertsDecoder.decode(valid + [0xF0, 0x9F, 0x9A] + rest, chicago: TestZones.chicago) } == .invalidUTF8(offset: valid.count))  // cut short
        #expect(failure { try AlertsDecoder.decode([0xFF, 0xFE] + bytes("{}"), chicago: TestZones.chicago) } == .invalidUTF8(offset: 0))  // UTF-16 BOM
        #expect(failure { try AlertsDecoder.decode(bytes(#"{"alerts":[]}"#) + [0x80], chicago: TestZones.chicago) } == .invalidUTF8(offset: 13))
    }

    @Test func limitsDefaults() {
        #expect(DecodingLimits() == DecodingLimits(maxDepth: 64, maxItems: 100_000))
    }
}

@Suite struct DecodingFailureDescriptionTests {
    @Test(arguments: [
        (DecodingFailure.invalidUTF8(offset: 12), "body is not valid UTF-8 (byte offset 12)"),
        (.invalidJSON(.unexpectedEnd), "body is not valid JSON: unexpected end of JSON"),
        (.invalidJSON(.tooDeep(limit: 64)), "body is not valid JSON: JSON nested deeper than 64 levels"),
        (.invalidCSV(.recordTooLong(line: 3, limit: 10)), "body is not valid CSV: record on line 3 is longer than 10 bytes"),
        (.unrecognisedFormat("empty body"), "unrecognised upstream format: empty body"),
        (.malformed(path: "CTAAlerts.Alert[3].ImpactedService", reason: "expected an object, found a string"),
         "malformed upstream data at CTAAlerts.Alert[3].ImpactedService: expected an object, found a string"),
        (.upstreamError(code: "100", message: "Invalid option"), "CTA API error 100: Invalid option"),
        (.upstreamError(code: "100", message: nil), "CTA API error 100"),
        (.upstreamError(code: "100", message: ""), "CTA API error 100"),
        (.tooMany(count: 100_001, limit: 100_000), "upstream sent 100001 items, more than the limit of 100000"),
    ])
    func oneEnglishLine(failure: DecodingFailure, text: String) {
        #expect(failure.description == text)
        #expect(!failure.description.contains("\n"))
    }
}
