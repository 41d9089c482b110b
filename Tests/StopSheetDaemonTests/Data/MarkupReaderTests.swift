@testable import StopSheetDaemon
import StopSheetCore
import StopSheetTestSupport
import Testing

/// SIRI-FM bodies through libxml2: the hand-made fixture read whole, and hostile bodies refused
/// with a clear failure (no entity is ever declared, expanded or fetched).
@Suite struct MarkupReaderTests {
    static let berlin = TestZones.rules("Europe/Berlin")

    func failure(_ text: String) -> DecodingFailure? {
        do {
            _ = try MarkupReader.read(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func theSIRIFixtureReadsWhole() throws {
        let feed = try FacilitiesBody.decode(Fixtures.bytes("facilities/siri_fm.HANDMADE.xml"), local: Self.berlin)
        #expect(feed.format == .siriFM && feed.producedAt == Instant(secondsSince1970: 1_789_624_800))
        #expect(feed.units.map(\.unitID) == ["diid:0a1b2c3d-0000-4000-8000-000000000001", "ELEV-7", "diid:0a1b2c3d-0000-4000-8000-000000000003",
                                                "diid:0a1b2c3d-0000-4000-8000-000000000004", "diid:0a1b2c3d-0000-4000-8000-000000000005"])
        #expect(feed.units.map(\.status) == [.notAvailable, .partiallyAvailable, .unknown, .available, .unknown])
        // `&amp;` is XML's own, not an entity of a DTD: it reads as `&`.
        #expect(feed.units[0].description == "Aufzug zu Gleis 1 & 2 außer Betrieb")
        #expect(feed.units[1].location.stopIDs == ["U1234"] && feed.units[1].facility == .elevator)
        #expect(feed.notices.count == 1)
    }

    @Test func theJSONFormatsGoToTheJSONDecoders() throws {
        let wmata = try FacilitiesBody.decode(Fixtures.bytes("facilities/wmata_elevator_incidents.HANDMADE.json"), local: Self.berlin)
        let nyct = try FacilitiesBody.decode(Fixtures.bytes("facilities/nyct_ene.HANDMADE.json"), local: Self.berlin)
        #expect(wmata.format == .wmata && nyct.format == .nyct)
    }

    @Test func aBillionLaughsIsRefused() {
        let body = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [
             <!ENTITY lol "lol">
             <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
             <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
             <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
             <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
             <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
             <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
             <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
             <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
            ]>
            <Siri><ServiceDelivery><FacilityMonitoringDelivery><FacilityCondition><FacilityRef>&lol9;</FacilityRef></FacilityCondition></FacilityMonitoringDelivery></ServiceDelivery></Siri>
            """
        #expect(failure(body) == .invalidXML("a document type declaration (DTD) is refused"))
        #expect(failure(body)?.description == "body is not acceptable XML: a document type declaration (DTD) is refused")
    }

    @Test func anExternalEntityIsRefused() {
        let body = """
            <?xml version="1.0"?>
            <!DOCTYPE Siri [ <!ENTITY secret SYSTEM "file:///etc/passwd"> ]>
            <Siri><ServiceDelivery><FacilityMonitoringDelivery><FacilityCondition><FacilityRef>&secret;</FacilityRef></FacilityCondition></FacilityMonitoringDelivery></ServiceDelivery></Siri>
            """
        #expect(failure(body) == .invalidXML("a document type declaration (DTD) is refused"))
        // Without the DTD, the reference names no entity: malformed, and nothing is read.
        let undeclared = "<Siri><FacilityRef>&secret;</FacilityRef></Siri>"
        guard case .invalidXML(let reason)? = failure(undeclared) else {
            Issue.record("an undeclared entity was accepted")
            return
        }
        #expect(reason.hasPrefix("line 1: Entity 'secret' not defined"))
    }

    /// The `<!DOCTYPE` is looked for in the bytes before libxml2 reads any: found at the very
    /// start, at the very end and after a near miss, in bodies libxml2 would only call malformed
    /// (its own check of a parsed document's subsets never sees them), and not found where the
    /// body holds only part of it.
    @Test func aDocumentTypeIsFoundInTheBytesWhereverItIs() {
        let refused = DecodingFailure.invalidXML("a document type declaration (DTD) is refused")
        #expect(failure("<!DOCTYPE") == refused, "the whole body")
        #expect(failure("<Siri><!--<!DOCTYPX <!DOCTYP--></Siri>\n<!DOCTYPE") == refused, "at the end, after near misses")
        for partial in ["<Siri/><!DOCTYP", "<!DOCTYP", "<Siri><!--DOCTYPE--></Siri><!DOCTYPX"] {
            guard case .invalidXML(let reason)? = failure(partial) else {
                Issue.record("\(partial) was accepted")
                continue
            }
            #expect(reason.hasPrefix("line "), "\(partial): libxml2's own verdict, not the refusal of a DTD: \(reason)")
        }
    }

    @Test func depthAndShapeAreBounded() {
        let deep = String(repeating: "<a>", count: 65) + String(repeating: "</a>", count: 65)
        #expect(failure(deep) == .invalidXML("elements nested deeper than 64"))
        let fine = String(repeating: "<a>", count: 64) + "x" + String(repeating: "</a>", count: 64)
        #expect(failure(fine) == nil)
        guard case .invalidXML(let reason)? = failure("<Siri><unclosed></Siri>") else {
            Issue.record("a malformed body was accepted")
            return
        }
        #expect(reason.hasPrefix("line 1: "))
        #expect(failure("") != nil)
    }

    /// Every element counts toward the cap, however deep: the root, its children and theirs.
    @Test func theElementCapCountsEveryElement() throws {
        let three = Array("<a><b><c/></b></a>".utf8)
        #expect(try MarkupReader.read(three, maxElements: 3).children[0].children.map(\.name) == ["c"])
        #expect(throws: DecodingFailure.invalidXML("more than 2 elements")) { try MarkupReader.read(three, maxElements: 2) }
        let siblings = Array("<a><b/><b/><b/></a>".utf8)
        #expect(try MarkupReader.read(siblings, maxElements: 4).children.count == 3)
        #expect(throws: DecodingFailure.invalidXML("more than 3 elements")) { try MarkupReader.read(siblings, maxElements: 3) }
    }

    /// The format is told by the first byte that is not a BOM, a space, a tab, a CR or an LF:
    /// SIRI-FM without its XML declaration may follow any of them.
    @Test func xmlIsToldAfterABOMAndEveryKindOfBlank() throws {
        let fixture = String(decoding: try Fixtures.bytes("facilities/siri_fm.HANDMADE.xml"), as: UTF8.self)
        let siri = try #require(fixture.split(separator: "\n", maxSplits: 1).last)
        let whole = try FacilitiesBody.decode(Array(fixture.utf8), local: Self.berlin)
        for blanks in ["\u{FEFF}", " \t\r\n", "\u{FEFF}\n\r\t "] {
            let feed = try FacilitiesBody.decode(Array((blanks + siri).utf8), local: Self.berlin)
            #expect(feed.format == .siriFM && feed.units.map(\.unitID) == whole.units.map(\.unitID), "\(Array(blanks.utf8))")
        }
    }
}
