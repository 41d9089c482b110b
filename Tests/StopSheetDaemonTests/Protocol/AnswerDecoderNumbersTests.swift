import StopSheetCore
import StopSheetProtocol
import Testing

/// `AnswerDecoder` reads a JSON number as the type asks: a `Double` or `Float` from any number
/// (integral ones too), an `Int` only from an integral one, a string never; at the top level, as
/// a member and as an array element alike. (No answer type has a fractional member today; the
/// decoder is the client's one reader, so a type that gains one must read.)
@Suite struct AnswerDecoderNumbersTests {
    struct Measures: Decodable, Equatable {
        var meters: Double
        var ratio: Float
        var count: Int
        var samples: [Double]
    }

    static func json(_ text: String) throws -> JSON { try JSONParser.parse(Array(text.utf8)) }

    @Test func fractionalAndIntegralNumbersReadAsDoubleAndFloat() throws {
        #expect(try AnswerDecoder.decode(Double.self, from: Self.json("2.5")) == 2.5)
        #expect(try AnswerDecoder.decode(Double.self, from: Self.json("-3")) == -3)
        #expect(try AnswerDecoder.decode(Measures.self, from: Self.json(#"{"meters":12.5,"ratio":0.25,"count":3,"samples":[1.5,2]}"#))
            == Measures(meters: 12.5, ratio: 0.25, count: 3, samples: [1.5, 2]))
        #expect(try AnswerDecoder.decode(Measures.self, from: Self.json(#"{"meters":12,"ratio":1,"count":0,"samples":[]}"#))
            == Measures(meters: 12, ratio: 1, count: 0, samples: []))
    }

    @Test func aFractionOrAStringIsNoIntAndAStringIsNoDouble() throws {
        #expect(throws: DecodingError.self) { try AnswerDecoder.decode(Int.self, from: Self.json("1.5")) }
        #expect(throws: DecodingError.self) { try AnswerDecoder.decode(Int.self, from: Self.json(#""1""#)) }
        #expect(throws: DecodingError.self) { try AnswerDecoder.decode(Double.self, from: Self.json(#""2.5""#)) }
        #expect(throws: DecodingError.self) {
            try AnswerDecoder.decode(Measures.self, from: Self.json(#"{"meters":"12.5","ratio":0.25,"count":3,"samples":[]}"#))
        }
    }

    /// A narrower integer reads a number it holds exactly and refuses one out of its range.
    @Test func aNarrowIntegerReadsOnlyWhatItHolds() throws {
        #expect(try AnswerDecoder.decode(UInt8.self, from: Self.json("255")) == 255)
        #expect(throws: DecodingError.self) { try AnswerDecoder.decode(UInt8.self, from: Self.json("256")) }
        #expect(throws: DecodingError.self) { try AnswerDecoder.decode(Bool.self, from: Self.json("1")) }
    }
}
