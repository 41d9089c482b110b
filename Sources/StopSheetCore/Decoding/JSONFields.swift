/// Typed reads from decoded JSON that name the offending path in every failure, so a broken
/// upstream shows up in `health.lastError` as the field to look at.
enum JSONFields {
    static func typeName(_ value: JSON) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    static func wrongType(_ value: JSON, at path: String, expected: String) -> DecodingFailure {
        .malformed(path: path, reason: "expected \(expected), found \(typeName(value))")
    }

    static func object(_ value: JSON?, at path: String) throws(DecodingFailure) -> JSONObject {
        guard let value else { throw .malformed(path: path, reason: "missing") }
        guard let object = value.objectValue else { throw wrongType(value, at: path, expected: "an object") }
        return object
    }

    static func array(_ value: JSON?, at path: String) throws(DecodingFailure) -> [JSON] {
        guard let value else { throw .malformed(path: path, reason: "missing") }
        guard let array = value.arrayValue else { throw wrongType(value, at: path, expected: "an array") }
        return array
    }

    /// A string or a number as text (ids come both ways); nil when absent or null.
    static func optionalScalarText(_ value: JSON?, at path: String) throws(DecodingFailure) -> String? {
        guard let value, !value.isNull else { return nil }
        guard let text = value.scalarText else { throw wrongType(value, at: path, expected: "a string or a number") }
        return text
    }

    /// An id: a string or a number, surrounding whitespace ignored, never empty.
    static func id(_ value: JSON?, at path: String) throws(DecodingFailure) -> String {
        guard let text = try optionalScalarText(value, at: path) else { throw .malformed(path: path, reason: "missing") }
        let id = UpstreamText.trimmed(text)
        guard !id.isEmpty else { throw .malformed(path: path, reason: "empty") }
        return id
    }

    static func optionalString(_ value: JSON?, at path: String) throws(DecodingFailure) -> String? {
        guard let value, !value.isNull else { return nil }
        guard let string = value.stringValue else { throw wrongType(value, at: path, expected: "a string") }
        return string
    }

    static func string(_ value: JSON?, at path: String) throws(DecodingFailure) -> String {
        guard let string = try optionalString(value, at: path) else { throw .malformed(path: path, reason: "missing") }
        return string
    }

    /// Decodes each element of an upstream list, within the item limit, naming each by its index
    /// (`alerts[3]`); elements the decoder drops (nil) are left out.
    static func records<Record>(_ elements: [JSON], at path: String, limits: DecodingLimits,
                                _ decode: (JSON, String) throws(DecodingFailure) -> Record?) throws(DecodingFailure) -> [Record]
    {
        try limits.check(itemCount: elements.count)
        var records: [Record] = []
        records.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            if let record = try decode(element, "\(path)[\(index)]") { records.append(record) }
        }
        return records
    }
}
