import StopSheetCore
import StopSheetProtocol
import Testing

/// The schema of a member that is not optional says its JSON type alone, never `null` beside it,
/// and the member is required: whatever Swift type holds it — each integer width, both floating
/// widths, `Bool`, `String` — since the answer types may use any of them and the wire is the same.
/// (docs/openrpc.json holds the members the answers have today; this holds the recorder for the
/// types they may get.)
@Suite struct AnswerSchemaScalarMembersTests {
    struct EveryScalar: AnswerObject {
        let int: Int, int8: Int8, int16: Int16, int32: Int32, int64: Int64
        let uint: UInt, uint8: UInt8, uint16: UInt16, uint32: UInt32, uint64: UInt64
        let double: Double, float: Float, bool: Bool, string: String
        enum CodingKeys: String, AnswerKey {
            case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, double, float, bool, string
        }
        static let summary = "One member of each scalar type."
    }

    static let jsonType: [EveryScalar.CodingKeys: String] = [
        .int: "integer", .int8: "integer", .int16: "integer", .int32: "integer", .int64: "integer",
        .uint: "integer", .uint8: "integer", .uint16: "integer", .uint32: "integer", .uint64: "integer",
        .double: "number", .float: "number", .bool: "boolean", .string: "string",
    ]

    @Test func aMemberThatIsNotOptionalIsRequiredAndNeverNull() throws {
        var schemas = AnswerSchemas()
        _ = try schemas.reference(EveryScalar.self)
        let schema = try #require(schemas.components[AnswerSchemas.name(EveryScalar.self)])
        let keys = EveryScalar.CodingKeys.allCases
        #expect(schema["required"] == .array(keys.map { .string($0.rawValue) }))
        for key in keys {
            let type = try #require(Self.jsonType[key])
            #expect(schema["properties"]?[key.rawValue] == ["type": .string(type)], "\(key.rawValue)")
        }
    }
}
