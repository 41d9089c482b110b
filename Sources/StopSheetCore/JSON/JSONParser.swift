/// A strict RFC 8259 parser with the limits a daemon needs: bounded nesting depth (checked
/// before recursing, so hostile input cannot overflow the stack) and rejection of invalid UTF-8.
public struct JSONParser {
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case unexpectedEnd
        case unexpectedByte(UInt8, offset: Int)
        case invalidUTF8(offset: Int)
        case invalidEscape(offset: Int)
        case invalidNumber(offset: Int)
        case tooDeep(limit: Int)
        /// An array or object with more members than the caller takes, cut off at the first one
        /// past the limit: a hostile body costs the work of the limit, not of its length.
        case tooManyMembers(limit: Int)
        case trailingBytes(offset: Int)

        public var description: String {
            switch self {
            case .unexpectedEnd: return "unexpected end of JSON"
            case .unexpectedByte(let byte, let offset): return "unexpected byte 0x\(String(byte, radix: 16)) at offset \(offset)"
            case .invalidUTF8(let offset): return "invalid UTF-8 in string at offset \(offset)"
            case .invalidEscape(let offset): return "invalid escape at offset \(offset)"
            case .invalidNumber(let offset): return "invalid number at offset \(offset)"
            case .tooDeep(let limit): return "JSON nested deeper than \(limit) levels"
            case .tooManyMembers(let limit): return "a JSON array or object with more than \(limit) members"
            case .trailingBytes(let offset): return "unexpected data after the JSON value at offset \(offset)"
            }
        }
    }

    public static let defaultMaxDepth = 64

    /// Parses exactly one JSON value (surrounded by optional whitespace).
    public static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes, maxDepth: Int = defaultMaxDepth,
                                                      maxMembers: Int = .max) throws(Failure) -> JSON {
        let array = Array(bytes)
        return try array.withUnsafeBufferPointer { buffer throws(Failure) in
            var parser = Cursor(bytes: buffer, maxDepth: maxDepth, maxMembers: maxMembers)
            parser.skipWhitespace()
            let value = try parser.value(depth: 0)
            parser.skipWhitespace()
            guard parser.position == buffer.count else { throw .trailingBytes(offset: parser.position) }
            return value
        }
    }

    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(Failure) -> JSON {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }

    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        let maxDepth: Int
        let maxMembers: Int
        var position = 0

        init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, maxMembers: Int) {
            self.bytes = bytes
            self.maxDepth = maxDepth
            self.maxMembers = maxMembers
        }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        func peek() throws(Failure) -> UInt8 {
            guard position < bytes.count else { throw .unexpectedEnd }
            return bytes[position]
        }

        mutating func expect(_ literal: StaticString, _ value: JSON) throws(Failure) -> JSON {
            let count = literal.utf8CodeUnitCount
            guard position + count <= bytes.count else { throw .unexpectedEnd }
            let start = literal.utf8Start
            for index in 0..<count where bytes[position + index] != start[index] {
                throw .unexpectedByte(bytes[position + index], offset: position + index)
            }
            position += count
            return value
        }

        mutating func value(depth: Int) throws(Failure) -> JSON {
            let byte = try peek()
            switch byte {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try expect("true", .bool(true))
            case UInt8(ascii: "f"): return try expect("false", .bool(false))
            case UInt8(ascii: "n"): return try expect("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw .unexpectedByte(byte, offset: position)
            }
        }

        mutating func object(depth: Int) throws(Failure) -> JSON {
            guard depth <= maxDepth else { throw .tooDeep(limit: maxDepth) }
            position += 1
            var object = JSONObject()
            skipWhitespace()
            if try peek() == UInt8(ascii: "}") {
                position += 1
                return .object(object)
            }
            while true {
                skipWhitespace()
                let byte = try peek()
                guard byte == UInt8(ascii: "\"") else { throw .unexpectedByte(byte, offset: position) }
                let key = try string()
                skipWhitespace()
                let colon = try peek()
                guard colon == UInt8(ascii: ":") else { throw .unexpectedByte(colon, offset: position) }
                position += 1
                skipWhitespace()
                guard object.members.count < maxMembers else { throw .tooManyMembers(limit: maxMembers) }
                object.append(key, try value(depth: depth))
                skipWhitespace()
                let next = try peek()
                position += 1
                if next == UInt8(ascii: "}") { return .object(object) }
                guard next == UInt8(ascii: ",") else { throw .unexpectedByte(next, offset: position - 1) }
            }
        }

        mutating func array(depth: Int) throws(Failure) -> JSON {
            guard depth <= maxDepth else { throw .tooDeep(limit: maxDepth) }
            position += 1
            var elements: [JSON] = []
            skipWhitespace()
            if try peek() == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                guard elements.count < maxMembers else { throw .tooManyMembers(limit: maxMembers) }
                elements.append(try value(depth: depth))
                skipWhitespace()
                let next = try peek()
                position += 1
                if next == UInt8(ascii: "]") { return .array(elements) }
                guard next == UInt8(ascii: ",") else { throw .unexpectedByte(next, offset: position - 1) }
            }
        }

        mutating func number() throws(Failure) -> JSON {
            let start = position
            func digits(_ cursor: inout Cursor) -> Int {
                let first = cursor.position
                while cursor.position < cursor.bytes.count,
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(cursor.bytes[cursor.position])
                {
                    cursor.position += 1
                }
                return cursor.position - first
            }
            if bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count else { throw .invalidNumber(offset: start) }
            if bytes[position] == UInt8(ascii: "0") {
                position += 1
            } else if digits(&self) == 0 {
                throw .invalidNumber(offset: start)
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                guard digits(&self) > 0 else { throw .invalidNumber(offset: start) }
            }
            if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                    position += 1
                }
                guard digits(&self) > 0 else { throw .invalidNumber(offset: start) }
            }
            return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
        }

        mutating func string() throws(Failure) -> String {
            let start = position
            position += 1
            // Fast path: no escapes, so the bytes between the quotes are the string.
            var scan = position
            while scan < bytes.count {
                let byte = bytes[scan]
                if byte == UInt8(ascii: "\"") {
                    let raw = UnsafeBufferPointer(rebasing: bytes[position..<scan])
                    guard let string = String(validating: raw, as: UTF8.self) else { throw .invalidUTF8(offset: start) }
                    position = scan + 1
                    return string
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { throw .unexpectedByte(byte, offset: scan) }
                scan += 1
            }
            guard scan < bytes.count else { throw .unexpectedEnd }
            var utf8: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[position..<scan]))
            position = scan
            while true {
                guard position < bytes.count else { throw .unexpectedEnd }
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    guard let string = String(validating: utf8, as: UTF8.self) else { throw .invalidUTF8(offset: start) }
                    return string
                case UInt8(ascii: "\\"):
                    try escape(into: &utf8)
                case 0..<0x20:
                    throw .unexpectedByte(byte, offset: position - 1)
                default:
                    utf8.append(byte)
                }
            }
        }

        mutating func escape(into utf8: inout [UInt8]) throws(Failure) {
            guard position < bytes.count else { throw .unexpectedEnd }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    // A high surrogate must be followed by an escaped low surrogate.
                    guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                        bytes[position + 1] == UInt8(ascii: "u")
                    else { throw .invalidEscape(offset: position) }
                    position += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw .invalidEscape(offset: position) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw .invalidEscape(offset: position)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw .invalidEscape(offset: position) }
                utf8.append(contentsOf: UTF8.encode(unicode)!)
            default:
                throw .invalidEscape(offset: position - 1)
            }
        }

        mutating func hex4() throws(Failure) -> UInt32 {
            guard position + 4 <= bytes.count else { throw .unexpectedEnd }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw .invalidEscape(offset: position)
                }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            return value
        }
    }
}
