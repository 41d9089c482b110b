import StopSheetCore
import StopSheetTestSupport
import Testing

@Suite struct TZifDecoderTests {
    static let chicagoFile = Fixtures.bytes(atPath: TestZones.directory + "/America/Chicago")

    @Test func readsTheSystemsFileForTheZoneItNames() throws {
        let rules = try TZifDecoder.decode(Self.chicagoFile, identifier: "America/Chicago")
        #expect(rules.identifier == "America/Chicago")
        #expect(rules == TestZones.chicago)
    }

    @Test func everyCutOfTheFileIsAClearFailureNotACrash() {
        for length in stride(from: 0, to: Self.chicagoFile.count - 1, by: 7) {
            #expect(throws: DecodingFailure.self, "cut at \(length)") {
                try TZifDecoder.decode(Array(Self.chicagoFile.prefix(length)), identifier: "cut")
            }
        }
    }

    @Test func somethingElseIsNotATimeZoneFile() {
        #expect(throws: DecodingFailure.unrecognisedFormat("not a TZif time-zone file")) {
            try TZifDecoder.decode(Array("America/Chicago\n".utf8), identifier: "x")
        }
    }

    @Test func aBadFooterRuleIsRefused() {
        var bytes = Self.chicagoFile
        let footer = Array("\nCST6CDT,M3.2.0,M11.1.0\n".utf8)
        #expect(bytes.suffix(footer.count).elementsEqual(footer))
        bytes.replaceSubrange((bytes.count - footer.count)..., with: Array("\nCST6CDT,M13.2.0,M11.1.0\n".utf8))
        #expect(throws: DecodingFailure.self) { try TZifDecoder.decode(bytes, identifier: "x") }
    }
}
