import StopSheetCore

/// What `call`'s PARAMS_JSON got wrong, said as what JSON wanted where it went wrong: a shell
/// eats the double quotes of `'{stopId:40380}'`-style mistakes far more often than JSON is
/// truncated, so the likely fix is named.
enum ParamsJSON {
    static func explain(_ failure: any Error, in text: String) -> String {
        guard case .unexpectedByte(let byte, let offset)? = failure as? JSONParser.Failure else { return "not JSON: \(failure)" }
        let bytes = Array(text.utf8)
        let before = bytes[..<min(offset, bytes.count)].last { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        let found = (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        let wanted: String
        switch before {
        case UInt8(ascii: "{")?:
            wanted = "a member name in double quotes or '}'"
        case UInt8(ascii: ",")? where isInObject(bytes[..<offset]):
            wanted = "a member name in double quotes"
        case UInt8(ascii: ":")?, UInt8(ascii: "[")?, UInt8(ascii: ",")?, nil:
            wanted = "a value: a string in double quotes, a number, true, false, null, an object or an array"
        default:
            wanted = "',' or the end of the object or array"
        }
        let example = #" (for example '{"stopId":"40380"}')"#
        return "not JSON: at offset \(offset) JSON wants \(wanted), not \(found)\(example)"
    }

    /// Whether the innermost open bracket before the end of `prefix` is `{` (strings skipped).
    private static func isInObject(_ prefix: ArraySlice<UInt8>) -> Bool {
        var open: [UInt8] = []
        var inString = false, escaped = false
        for byte in prefix {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): open.append(byte)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = open.popLast()
            default: break
            }
        }
        return open.last == UInt8(ascii: "{")
    }
}
