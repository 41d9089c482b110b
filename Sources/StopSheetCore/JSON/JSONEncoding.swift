/// Compact JSON encoding: no insignificant whitespace, members in their stored order,
/// non-ASCII text as raw UTF-8 except the characters `encodeString` escapes. One line, ready for the wire.
extension JSON {
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        encode(into: &bytes)
        return bytes
    }

    public var encodedString: String { String(decoding: encoded, as: UTF8.self) }

    public func encode(into bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .string(let string): JSON.encodeString(string, into: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.encode(into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSON.encodeString(member.key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                member.value.encode(into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Copies runs of bytes that need no escape in bulk: sheets are mostly plain text, and a
    /// byte-at-a-time append was most of the cost of building a snapshot.
    ///
    /// Escaped besides what JSON requires (`"`, `\\`, U+0000–U+001F): DEL, the C1 controls
    /// U+0080–U+009F and U+2028/U+2029. Valid JSON either way, but upstream text reaches clients
    /// that print it or embed it in JavaScript, where those characters move the cursor, switch
    /// terminal modes or end a line. Escapes are per code point, so a string's encoding is the
    /// concatenation of its parts' encodings (the wire's spliced sheets rely on that).
    public static func encodeString(_ string: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        encodeStringContent(string, into: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// `encodeString` without the quotes: a string written from parts is the parts' contents
    /// between one pair of quotes, since escapes are per code point.
    public static func encodeStringContent(_ string: String, into bytes: inout [UInt8]) {
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            var index = 0
            while index < utf8.count {
                if index + 8 <= utf8.count, !mayNeedEscape(UnsafeRawPointer(utf8.baseAddress! + index).loadUnaligned(as: UInt64.self)) {
                    index += 8
                    continue
                }
                let byte = utf8[index]
                let escaped: (scalar: UInt32, length: Int)?
                switch byte {
                case 0..<0x20, UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x7F:
                    escaped = (UInt32(byte), 1)
                case 0xC2 where index + 1 < utf8.count && (0x80...0x9F).contains(utf8[index + 1]):
                    escaped = (UInt32(utf8[index + 1]), 2)
                case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80 && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                    escaped = (0x2000 | UInt32(utf8[index + 2] - 0x80), 3)
                default:
                    escaped = nil
                }
                guard let escaped else {
                    index += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                appendEscape(escaped.scalar, into: &bytes)
                index += escaped.length
                runStart = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
    }

    /// Whether any of the eight bytes in `word` may need an escape: one below U+0020, `"`, a backslash,
    /// DEL, or any byte of a multi-byte sequence (some of which are escaped). Eight plain bytes are
    /// then passed over at once, with a few word operations instead of a test per byte; a word
    /// that may need one is looked at byte by byte. Never false for a byte that needs one.
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        // A byte b < n (n ≤ 0x80) sets its high bit in (word - n·ones) & ~word; b == c is b ^ c < 1.
        func anyBelow(_ word: UInt64, _ n: UInt64) -> Bool { (word &- n &* ones) & ~word & highs != 0 }
        return word & highs != 0 || anyBelow(word, 0x20) || anyBelow(word ^ (0x22 &* ones), 1)
            || anyBelow(word ^ (0x5C &* ones), 1) || anyBelow(word ^ (0x7F &* ones), 1)
    }

    private static func appendEscape(_ scalar: UInt32, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\\"))
        switch scalar {
        case 0x22, 0x5C: bytes.append(UInt8(scalar))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(UInt8(ascii: "u"))
            for shift in stride(from: 12, through: 0, by: -4) { bytes.append(hex[Int(scalar >> UInt32(shift) & 0x0F)]) }
        }
    }
}
