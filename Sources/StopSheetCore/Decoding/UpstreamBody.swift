/// The checks every upstream body gets before its format is known.
enum UpstreamBody {
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Offset of the first byte that is not part of well-formed UTF-8 (overlong forms and
    /// encoded surrogates included), or nil when the whole body is valid.
    static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    static func validateUTF8(_ bytes: [UInt8]) throws(DecodingFailure) {
        if let offset = firstInvalidUTF8Offset(bytes) { throw .invalidUTF8(offset: offset) }
    }

    /// The body without a leading UTF-8 byte order mark (CTA's own XML starts with one).
    static func withoutByteOrderMark(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.starts(with: byteOrderMark) ? bytes.dropFirst(3) : bytes[...]
    }

    /// The first byte that is not JSON whitespace, or nil for an empty body.
    static func firstSignificantByte(_ body: ArraySlice<UInt8>) -> UInt8? {
        body.first { !isJSONWhitespace($0) }
    }

    static func isJSONValueStart(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            return true
        default:
            return false
        }
    }

    /// The body parsed as JSON, or the failure that says why it is not.
    static func json(_ bytes: [UInt8], limits: DecodingLimits) throws(DecodingFailure) -> JSON {
        try validateUTF8(bytes)
        let body = withoutByteOrderMark(bytes)
        guard let first = firstSignificantByte(body) else { throw .unrecognisedFormat("empty body") }
        guard isJSONValueStart(first) else { throw .unrecognisedFormat(notJSONHint(body)) }
        do {
            // No array or object longer than the items taken: a million-element body fails after
            // the limit's worth of parsing, not the whole body's.
            return try JSONParser.parse(body, maxDepth: limits.maxDepth, maxMembers: limits.maxItems)
        } catch .tooManyMembers(let limit) {
            throw .tooMany(count: nil, limit: limit)
        } catch {
            throw .invalidJSON(error)
        }
    }

    /// A short account of an unexpected JSON root, for `.unrecognisedFormat`.
    static func describeRoot(_ document: JSON) -> String {
        guard let object = document.objectValue else { return "JSON root is \(JSONFields.typeName(document))" }
        let keys = object.keys.prefix(5).map { "'\($0)'" }.joined(separator: ", ")
        return object.keys.isEmpty ? "JSON root is an empty object" : "JSON root object has keys \(keys)"
    }

    /// What a body that is not JSON starts with, for `.unrecognisedFormat`: an HTML error page
    /// from a proxy and CTA's XML output are the usual culprits.
    static func notJSONHint(_ body: ArraySlice<UInt8>, expected: String = "JSON") -> String {
        guard let start = body.firstIndex(where: { !isJSONWhitespace($0) }) else { return "empty body" }
        let text = String(decoding: body[start...].prefix(256), as: UTF8.self)
        if text.hasPrefix("<?xml"), text.contains("<CTAAlerts") {
            return "body is CTA Alerts XML (starts with '<'); ask for outputType=JSON"
        }
        let first = text.unicodeScalars.first!
        // Invisible characters are named by code point so the line stays readable in the journal.
        let isVisible = first.properties.generalCategory != .control && !first.properties.isWhitespace
            && first.properties.generalCategory != .format
        let hex = String(first.value, radix: 16, uppercase: true)
        let shown = isVisible ? "'\(first)'" : "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        return "body is not \(expected) (starts with \(shown))"
    }

    static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
