import Foundation
import StopSheetCore
import StopSheetProtocol
import Testing

/// docs/openrpc.json is the contract as a reviewed file: the OpenRPC document made from the types
/// (`OpenRPC.document`), pretty-printed, committed. A change of the wire — a member, a type, a
/// method, a limit — fails here until the file is rewritten, so it shows in the diff under review
/// (then decide the `ProtocolVersion` bump its policy asks for). OpenRPCIntegrationTests holds the
/// document the daemon serves to the same file.
///
/// After a deliberate change: `STOPSHEET_UPDATE_OPENRPC=1 swift test --skip-build --filter
/// OpenRPCDocumentTests` rewrites the file (check the diff before committing).
@Suite struct OpenRPCDocumentTests {
    static let path = Fixtures.packageRoot + "/docs/openrpc.json"

    @Test func theCommittedDocumentIsTheOneTheTypesMake() throws {
        let made = Self.pretty(OpenRPC.document) + "\n"
        if ProcessInfo.processInfo.environment["STOPSHEET_UPDATE_OPENRPC"] == "1" {
            try made.write(toFile: Self.path, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOfFile: Self.path, encoding: .utf8)
        #expect(committed == made, "docs/openrpc.json is not what the types make: rewrite it with STOPSHEET_UPDATE_OPENRPC=1 and review the diff")
        #expect(try JSONParser.parse(committed) == OpenRPC.document, "the file parses back to the document")
    }

    @Test func theDocumentCarriesTheProtocolVersionNotTheRelease() {
        #expect(OpenRPC.document["info"]?["version"] == "2.5")
    }

    /// Two-space indents, one member or element a line, members in their order; scalars and
    /// empty containers as the compact encoder writes them.
    static func pretty(_ value: JSON, indent: String = "") -> String {
        let inner = indent + "  "
        switch value {
        case .array(let elements) where !elements.isEmpty:
            return "[\n" + elements.map { inner + pretty($0, indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let object) where !object.members.isEmpty:
            return "{\n" + object.members.map { inner + JSON.string($0.key).encodedString + ": " + pretty($0.value, indent: inner) }
                .joined(separator: ",\n") + "\n\(indent)}"
        default:
            return value.encodedString
        }
    }

    /// A type whose `init(from:)` throws while its schema is read fails the recorder loudly: the
    /// error reaches the caller, and no half-written entry is left in `components`.
    @Test func aSchemaThatCannotBeReadThrows() throws {
        var schemas = AnswerSchemas()
        _ = try schemas.reference(Answer.Version.self)
        let before = schemas.components
        #expect(throws: Unreadable.Refusal.self) { try schemas.reference(Unreadable.self) }
        #expect(schemas.components == before)
        #expect(schemas.components[AnswerSchemas.name(Unreadable.self)] == nil)
    }

    /// An answer object that checks what it reads and refuses all of it.
    struct Unreadable: AnswerObject {
        struct Refusal: Error {}
        var name: String
        enum CodingKeys: String, AnswerKey { case name }
        static let summary = "Never described."

        init(from decoder: any Decoder) throws {
            name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
            throw Refusal()
        }
    }

    /// A member left out when absent is not required, a `Nullable` one is required and may be
    /// `null`: read off the types (`Answer.Freshness`'s `ageSeconds`, `Answer.Scope`'s `id`).
    @Test func theSchemaSaysWhatAnAbsentMemberIsByItsType() throws {
        var schemas = AnswerSchemas()
        _ = try schemas.reference(Answer.Freshness.self)
        _ = try schemas.reference(Answer.Scope.self)
        let freshness = try #require(schemas.components[AnswerSchemas.name(Answer.Freshness.self)])
        #expect(freshness["required"]?.arrayValue?.contains("ageSeconds") == true)
        #expect(freshness["properties"]?["ageSeconds"]?["type"] == ["integer", "null"])
        let scope = try #require(schemas.components[AnswerSchemas.name(Answer.Scope.self)])
        #expect(scope["required"]?.arrayValue?.contains("id") == false)
        #expect(scope["properties"]?["id"]?["type"] == "string")
    }

    /// A variant that names a member every object has (here a `Nullable` one) is a mistake of its
    /// declaration: the recorder throws, and leaves `components` as it was.
    @Test func aVariantNamingAMemberThatIsNeverLeftOutThrows() throws {
        var schemas = AnswerSchemas()
        #expect(throws: SchemaError.variantMemberNotLeftOut(variant: "b", member: "note")) { try schemas.reference(Variant.self) }
        #expect(schemas.components[AnswerSchemas.name(Variant.self)] == nil)
    }

    struct Variant: AnswerObject {
        var kind: String
        var extra: String?
        var note: Nullable<String>
        enum CodingKeys: String, AnswerKey {
            case kind, extra, note
            static let variants: AnswerVariants<Self>? = AnswerVariants(by: .kind, [("a", [.extra]), ("b", [.note])])
        }
        static let summary = "Never described."
    }

    @Test func prettyPrintingIsIndentedJSON() {
        let value: JSON = ["a": [1, ["b": .null]], "c": [], "d": "é\n"]
        #expect(Self.pretty(value) == "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"c\": [],\n  \"d\": \"é\\n\"\n}")
    }
}
