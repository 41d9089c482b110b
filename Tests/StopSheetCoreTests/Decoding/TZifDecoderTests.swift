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
        #expect(throws: DecodingFailure.self) { try TZifDecoder.decode(Self.chicago(footer: "CST6CDT,M13.2.0,M11.1.0"), identifier: "x") }
    }

    /// Chicago's file with its footer's TZ string replaced (RFC 8536 §3.3: a newline, the
    /// string, a newline).
    static func chicago(footer: String) -> [UInt8] {
        var bytes = chicagoFile
        let original = Array("\nCST6CDT,M3.2.0,M11.1.0\n".utf8)
        precondition(bytes.suffix(original.count).elementsEqual(original), "the system's Chicago file ends otherwise")
        bytes.replaceSubrange((bytes.count - original.count)..., with: Array("\n\(footer)\n".utf8))
        return bytes
    }

    /// Far-future instants, after the file's last transition: the footer's rule decides them.
    static let january2100 = Instant(secondsSince1970: 4_102_444_800)
    static let july2100 = Instant(secondsSince1970: 4_118_083_200)

    @Test func anEmptyFooterMeansTheLastTimeTypeGoesOn() throws {
        // RFC 8536 §3.3: an empty TZ string says no rule follows the last transition, which in
        // Chicago's file is a return to standard time: no daylight time after it.
        #expect(try TZifDecoder.decode(Self.chicagoFile, identifier: "x").utcOffset(at: Self.july2100) == -18000)
        let rules = try TZifDecoder.decode(Self.chicago(footer: ""), identifier: "x")
        #expect(rules.utcOffset(at: Self.july2100) == -21600)
        #expect(rules.utcOffset(at: Self.january2100) == -21600)
    }

    @Test func minutesAndSecondsOfAnOffsetGoUpTo59() throws {
        let latest = try TZifDecoder.decode(Self.chicago(footer: "XXX5:59:59"), identifier: "x")
        #expect(latest.utcOffset(at: Self.january2100) == -(5 * 3600 + 59 * 60 + 59))
        for footer in ["XXX5:60", "XXX5:00:60"] {
            #expect(throws: DecodingFailure.self, "\(footer)") { try TZifDecoder.decode(Self.chicago(footer: footer), identifier: "x") }
        }
    }

    /// RFC 8536 §3.3.1 lets a transition's time run from −167 to 167 hours, where POSIX stops at
    /// 24 (Jerusalem's footer `IST-2IDT,M3.4.4/26,M10.5.0` needs 26): daylight time starting 167
    /// hours after the second Sunday of March begins, so the Tuesday after is still standard.
    @Test func aTransitionTimeGoesUpTo167Hours() throws {
        let late = try TZifDecoder.decode(Self.chicago(footer: "CST6CDT,M3.2.0/167,M11.1.0"), identifier: "x")
        let tuesdayAfter = Instant(secondsSince1970: 4_108_881_600)  // 2100-03-16 12:00 UTC
        let sundayAfter = Instant(secondsSince1970: 4_109_292_000)  // 2100-03-21 06:00 UTC, 167 h + 1 h after 2100-03-14 00:00 CST
        #expect(late.utcOffset(at: tuesdayAfter) == -21600)
        #expect(late.utcOffset(at: sundayAfter) == -18000)
        #expect(throws: Never.self) { try TZifDecoder.decode(Self.chicago(footer: "CST6CDT,M3.2.0/-167,M11.1.0"), identifier: "x") }
        #expect(throws: DecodingFailure.self) { try TZifDecoder.decode(Self.chicago(footer: "CST6CDT,M3.2.0/168,M11.1.0"), identifier: "x") }
    }

    @Test func zonesNamedByTheirOffsetReadTheirAngleBracketedNames() throws {
        // São Paulo's footer is `<-03>3`, Tehran's `<+0330>-3:30`: a name of at least three
        // characters between `<` and `>` (POSIX), here the offset itself.
        func zone(_ identifier: String) throws -> TimeZoneRules {
            try TZifDecoder.decode(Fixtures.bytes(atPath: TestZones.directory + "/" + identifier), identifier: identifier)
        }
        #expect(try zone("America/Sao_Paulo").utcOffset(at: Self.july2100) == -3 * 3600)
        #expect(try zone("Asia/Tehran").utcOffset(at: Self.july2100) == 3 * 3600 + 30 * 60)
        #expect(throws: DecodingFailure.self) { try TZifDecoder.decode(Self.chicago(footer: "<03>3"), identifier: "x") }
    }

    @Test func aRuleCutAfterItsDaylightNameIsRefusedNotReadPastItsEnd() {
        // `CST6CDT` names a daylight time but not when it starts and ends: POSIX wants both.
        #expect(throws: DecodingFailure.self) { try TZifDecoder.decode(Self.chicago(footer: "CST6CDT"), identifier: "x") }
    }
}
