import StopSheetCore

/// The request shape nearly every client sends, read straight from the line's bytes without
/// building a JSON tree:
///
///     {"jsonrpc":"2.0","id":7,"method":"stopSheet","params":{"stopId":"40380"}}
///
/// Accepted: exactly the members `jsonrpc` ("2.0"), `id` (an integer literal or a string),
/// `method` (a string) and `params` (an object of one string member), each once, in any order,
/// with JSON whitespace anywhere between tokens. Every string must be plain: printable ASCII
/// without `"` or `\`, so its bytes are its value and no escape or UTF-8 rule can apply.
///
/// Anything else — escapes, non-ASCII, other numbers, a missing or repeated member, an extra one,
/// other params, notifications — is declined (nil) and the line takes the general path
/// (`RPCMessage.parse`). What is accepted parses there to the very same `RPCRequest`
/// (`request`); tests check this on a table of tricky lines and on random mutations.
struct CompactRequest: Equatable {
    var id: JSON
    var method: String
    var paramName: String
    var paramValue: String

    /// The general parser's result for the same line.
    var request: RPCRequest {
        RPCRequest(id: id, method: method, params: .object(JSONObject([(key: paramName, value: .string(paramValue))])))
    }

    /// Nesting the general parser must allow for the same answer: the request object and params.
    static let depth = 2

    static func parse(_ line: UnsafeRawBufferPointer) -> CompactRequest? {
        var reader = Reader(bytes: line)
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        var sawVersion = false
        var id: JSON?
        var method: String?
        var param: (name: String, value: String)?
        repeat {
            guard let key = reader.plainString(), reader.take(UInt8(ascii: ":")) else { return nil }
            if reader.equals(key, "jsonrpc") {
                guard !sawVersion, let value = reader.plainString(), reader.equals(value, "2.0") else { return nil }
                sawVersion = true
            } else if reader.equals(key, "id") {
                guard id == nil else { return nil }
                if let text = reader.plainString() {
                    id = .string(reader.string(text))
                } else if let digits = reader.integer() {
                    id = .number(reader.string(digits))
                } else {
                    return nil
                }
            } else if reader.equals(key, "method") {
                guard method == nil, let text = reader.plainString() else { return nil }
                method = reader.string(text)
            } else if reader.equals(key, "params") {
                guard param == nil, reader.take(UInt8(ascii: "{")), let name = reader.plainString(), reader.take(UInt8(ascii: ":")),
                      let value = reader.plainString(), reader.take(UInt8(ascii: "}"))
                else { return nil }
                param = (reader.string(name), reader.string(value))
            } else {
                return nil
            }
        } while reader.take(UInt8(ascii: ","))
        guard reader.take(UInt8(ascii: "}")), reader.atEnd, sawVersion, let id, let method, let param else { return nil }
        return CompactRequest(id: id, method: method, paramName: param.name, paramValue: param.value)
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        private mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        /// Skips whitespace, then consumes `byte` if it is next.
        mutating func take(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        var atEnd: Bool {
            mutating get {
                skipWhitespace()
                return position == bytes.count
            }
        }

        /// A plain string's content (between the quotes), or nil without consuming a byte that
        /// matters: the caller declines the line then anyway.
        mutating func plainString() -> Range<Int>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    return start..<(position - 1)
                }
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
                position += 1
            }
            return nil
        }

        /// `-?(0|[1-9][0-9]*)`: a fraction or exponent after it fails the next `take`, so the
        /// line is declined rather than misread.
        mutating func integer() -> Range<Int>? {
            skipWhitespace()
            let start = position
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
            let digitsStart = position
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
            let count = position - digitsStart
            guard count > 0, count == 1 || bytes[digitsStart] != 0x30 else { return nil }
            return start..<position
        }

        func equals(_ range: Range<Int>, _ literal: StaticString) -> Bool {
            guard range.count == literal.utf8CodeUnitCount else { return false }
            let text = literal.utf8Start
            for offset in 0..<range.count where bytes[range.lowerBound + offset] != text[offset] { return false }
            return true
        }

        /// ASCII by construction; up to 15 bytes the string is stored inline, not allocated.
        func string(_ range: Range<Int>) -> String {
            String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
    }
}
