import StopSheetCore
import Testing

/// The wire-format reader: every value bounded by its message, groups refused, depth limited.
@Suite struct ProtobufReaderTests {
    @Test(arguments: [UInt64(0), 1, 127, 128, 300, UInt64(Int32.max), UInt64.max])
    func varintsRoundTrip(value: UInt64) throws {
        var reader = ProtobufReader(Wire.field(3, varint: value))
        let field = try #require(try reader.next())
        #expect(field.number == 3 && field.wireType == .varint)
        #expect(try reader.varint() == value)
        #expect(try reader.next() == nil)
    }

    @Test func unknownFieldsOfEveryWireTypeAreSkipped() throws {
        let body = Wire.field(1, varint: 5) + Wire.key(2, 1) + [UInt8](repeating: 9, count: 8) + Wire.key(3, 5) + [1, 2, 3, 4]
            + Wire.field(1000, "extension") + Wire.field(4, "kept")
        var reader = ProtobufReader(body)
        var kept: [UInt8] = []
        while let field = try reader.next() {
            if field.number == 4 { kept = Array(try reader.lengthDelimited()) } else { try reader.skip(field) }
        }
        #expect(kept == Array("kept".utf8))
    }

    @Test func failuresAreTyped() {
        // Field 9 is opened as a nested message, at any depth; everything else is skipped.
        func walk(_ reader: inout ProtobufReader) throws(ProtobufReader.Failure) {
            while let field = try reader.next() {
                if field.wireType == .lengthDelimited, field.number == 9 {
                    var inner = try reader.message()
                    try walk(&inner)
                } else {
                    try reader.skip(field)
                }
            }
        }
        func read(_ body: [UInt8]) -> ProtobufReader.Failure? {
            var reader = ProtobufReader(body, maxDepth: 3)
            do {
                try walk(&reader)
                return nil
            } catch {
                return error
            }
        }
        #expect(read(Wire.key(1, 2) + Wire.varint(10) + [1, 2]) == .truncated(offset: 1))
        #expect(read(Wire.key(1, 0) + [0x80]) == .truncated(offset: 2))
        #expect(read(Wire.key(1, 0) + [UInt8](repeating: 0xFF, count: 11) + [1]) == .overlongVarint(offset: 1))
        #expect(read(Wire.key(1, 3)) == .groupsNotSupported(field: 1, offset: 0))
        #expect(read(Wire.key(1, 4)) == .groupsNotSupported(field: 1, offset: 0))
        #expect(read(Wire.key(1, 6)) == .invalidWireType(6, offset: 0))
        #expect(read([0x00]) == .invalidFieldNumber(offset: 0))
        #expect(read(Wire.key(1, 5) + [1, 2]) == .truncated(offset: 1))
        #expect(read(Wire.field(9, Wire.field(9, Wire.field(9, [])))) == .tooDeep(limit: 3))
        #expect(read(Wire.field(9, Wire.field(9, []))) == nil)
    }
}
