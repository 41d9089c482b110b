import Testing
import StopSheetCore
import StopSheetProtocol

/// `AnswerDecoder` reads each scalar a `Decodable` may ask for from the JSON value of its kind,
/// and refuses a value of another kind: no answer has a floating-point member yet, so these are
/// the only reads of a `Double`.
@Suite struct AnswerDecoderScalarTests {
    @Test func eachScalarIsReadFromItsKindOfValue() throws {
        #expect(try AnswerDecoder.decode(Double.self, from: .number("2.5")) == 2.5)
        #expect(try AnswerDecoder.decode(Double.self, from: .number("3")) == 3)
        #expect(try AnswerDecoder.decode(Int.self, from: .number("-7")) == -7)
        #expect(try AnswerDecoder.decode(Bool.self, from: .bool(true)))
        #expect(try AnswerDecoder.decode(String.self, from: .string("é")) == "é")
        #expect(try AnswerDecoder.decode(UInt8.self, from: .number("255")) == 255)
    }

    @Test func aValueOfAnotherKindIsATypeMismatch() {
        #expect(throws: DecodingError.self) { try AnswerDecoder.decode(Double.self, from: .string("2.5")) }
        #expect(throws: DecodingError.self) { try AnswerDecoder.decode(Int.self, from: .number("2.5")) }
        #expect(throws: DecodingError.self) { try AnswerDecoder.decode(Bool.self, from: .number("1")) }
        #expect(throws: DecodingError.self) { try AnswerDecoder.decode(UInt8.self, from: .number("256")) }
    }
}
