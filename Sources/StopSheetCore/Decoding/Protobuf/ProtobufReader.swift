/// The Protocol Buffers wire format, read without a schema: the caller asks for the next field's
/// number and wire type, then reads the value it expects or skips it. Every length is checked
/// against the bytes its message has left, varints longer than ten bytes are refused, groups
/// (wire types 3 and 4, deprecated since proto2) are refused, and nested messages are opened
/// only to a depth limit — so no input can read out of bounds, loop or recurse without bound.
///
/// A value type over a shared byte array; a nested message is a new reader over a sub-range.
public struct ProtobufReader {
    public enum WireType: UInt8, Sendable {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, startGroup = 3, endGroup = 4, fixed32 = 5
    }

    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// A tag, a value or a length runs past the end of its message (offsets are in the body).
        case truncated(offset: Int)
        case overlongVarint(offset: Int)
        case invalidWireType(Int, offset: Int)
        case invalidFieldNumber(offset: Int)
        case groupsNotSupported(field: Int, offset: Int)
        case tooDeep(limit: Int)

        public var description: String {
            switch self {
            case .truncated(let offset): return "truncated at byte \(offset)"
            case .overlongVarint(let offset): return "varint longer than 10 bytes at byte \(offset)"
            case .invalidWireType(let type, let offset): return "invalid wire type \(type) at byte \(offset)"
            case .invalidFieldNumber(let offset): return "field number 0 at byte \(offset)"
            case .groupsNotSupported(let field, let offset): return "group (field \(field)) at byte \(offset): groups are not supported"
            case .tooDeep(let limit): return "messages nested deeper than \(limit) levels"
            }
        }
    }

    /// A field's key, as read by `next()`.
    public struct Field: Sendable {
        public var number: Int
        public var wireType: WireType
        /// Offset of the key in the body, for failure texts.
        public var offset: Int
    }

    private let bytes: [UInt8]
    private var index: Int
    private let end: Int
    /// Nesting level of this message (the body is 1) and the most allowed.
    private let depth: Int
    private let maxDepth: Int

    public init(_ bytes: [UInt8], maxDepth: Int = 64) {
        self.init(bytes, range: 0..<bytes.count, depth: 1, maxDepth: maxDepth)
    }

    private init(_ bytes: [UInt8], range: Range<Int>, depth: Int, maxDepth: Int) {
        self.bytes = bytes
        index = range.lowerBound
        end = range.upperBound
        self.depth = depth
        self.maxDepth = maxDepth
    }

    /// Where the next read starts, in the body.
    public var offset: Int { index }

    /// The next field's key, or nil at the end of the message.
    public mutating func next() throws(Failure) -> Field? {
        guard index < end else { return nil }
        let offset = index
        let key = try varint()
        let number = key >> 3
        guard number != 0 else { throw .invalidFieldNumber(offset: offset) }
        // Field numbers are at most 2^29 - 1; a larger key is not a key.
        guard number < 1 << 29 else { throw .invalidFieldNumber(offset: offset) }
        guard let type = WireType(rawValue: UInt8(key & 7)) else { throw .invalidWireType(Int(key & 7), offset: offset) }
        if type == .startGroup || type == .endGroup { throw .groupsNotSupported(field: Int(number), offset: offset) }
        return Field(number: Int(number), wireType: type, offset: offset)
    }

    public mutating func varint() throws(Failure) -> UInt64 {
        let start = index
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard index < end else { throw .truncated(offset: index) }
            guard shift < 70 else { throw .overlongVarint(offset: start) }
            let byte = bytes[index]
            index += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    public mutating func fixed64() throws(Failure) -> UInt64 { try fixed(8) }
    public mutating func fixed32() throws(Failure) -> UInt32 { UInt32(try fixed(4)) }

    private mutating func fixed(_ count: Int) throws(Failure) -> UInt64 {
        guard end - index >= count else { throw .truncated(offset: index) }
        var value: UInt64 = 0
        for position in 0..<count { value |= UInt64(bytes[index + position]) << (8 * UInt64(position)) }
        index += count
        return value
    }

    /// A length-delimited value's bytes.
    public mutating func lengthDelimited() throws(Failure) -> ArraySlice<UInt8> {
        let range = try lengthDelimitedRange()
        return bytes[range]
    }

    /// A nested message, one level deeper.
    public mutating func message() throws(Failure) -> ProtobufReader {
        guard depth < maxDepth else { throw .tooDeep(limit: maxDepth) }
        return ProtobufReader(bytes, range: try lengthDelimitedRange(), depth: depth + 1, maxDepth: maxDepth)
    }

    private mutating func lengthDelimitedRange() throws(Failure) -> Range<Int> {
        let lengthAt = index
        let length = try varint()
        guard length <= UInt64(end - index) else { throw .truncated(offset: lengthAt) }
        let range = index..<(index + Int(length))
        index = range.upperBound
        return range
    }

    /// Skips a field's value by its wire type (unknown fields and extensions).
    public mutating func skip(_ field: Field) throws(Failure) {
        switch field.wireType {
        case .varint: _ = try varint()
        case .fixed64: _ = try fixed(8)
        case .fixed32: _ = try fixed(4)
        case .lengthDelimited: _ = try lengthDelimitedRange()
        case .startGroup, .endGroup: throw .groupsNotSupported(field: field.number, offset: field.offset)
        }
    }
}
