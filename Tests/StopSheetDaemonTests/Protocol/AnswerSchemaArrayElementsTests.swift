import StopSheetCore
import StopSheetProtocol
import Testing

/// The schema recorder reads an array member as one element, however a type reads its elements
/// (a value, a nested object, a nested array, a decoder of its own): after one the array is at
/// its end, so a type that reads until the end reads one element and its schema is written.
@Suite struct AnswerSchemaArrayElementsTests {
    enum Way: Sendable { case nestedObject, nestedArray, superDecoder }

    /// Reads elements `way` until the array says it is at its end; more than one is refused
    /// (the recorder would otherwise have it read forever).
    struct ReadToTheEnd<Tag: WayTag>: Codable, Equatable, Sendable {
        struct ReadPastTheEnd: Error {}
        enum Nothing: String, CodingKey { case nothing }

        init(from decoder: any Decoder) throws {
            var elements = try decoder.unkeyedContainer()
            var read = 0
            while !elements.isAtEnd {
                switch Tag.way {
                case .nestedObject: _ = try elements.nestedContainer(keyedBy: Nothing.self)
                case .nestedArray: _ = try elements.nestedUnkeyedContainer()
                case .superDecoder: _ = try elements.superDecoder()
                }
                read += 1
                if read > 1 { throw ReadPastTheEnd() }
            }
        }

        func encode(to encoder: any Encoder) throws {}
    }

    protocol WayTag: Sendable { static var way: Way { get } }
    enum NestedObject: WayTag { static let way = Way.nestedObject }
    enum NestedArray: WayTag { static let way = Way.nestedArray }
    enum SuperDecoder: WayTag { static let way = Way.superDecoder }

    struct EachWay: AnswerObject {
        let object: ReadToTheEnd<NestedObject>
        let array: ReadToTheEnd<NestedArray>
        let decoder: ReadToTheEnd<SuperDecoder>
        enum CodingKeys: String, AnswerKey { case object, array, decoder }
        static let summary = "Arrays whose elements are read each way."
    }

    @Test func anArrayIsAtItsEndAfterOneElementReadAnyWay() throws {
        var schemas = AnswerSchemas()
        _ = try schemas.reference(EachWay.self)
        let schema = try #require(schemas.components[AnswerSchemas.name(EachWay.self)])
        for key in EachWay.CodingKeys.allCases {
            #expect(schema["properties"]?[key.rawValue]?["type"] == "array", "\(key.rawValue)")
        }
    }
}
