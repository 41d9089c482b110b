import StopSheetCore

/// Reads an answer (`JSON`, as parsed off the wire) into its type (`Answer`): `Decodable` over
/// the core's JSON value, so that the client needs no second parser. A member the type does not
/// know is ignored (a newer daemon's addition); one it needs that is missing or ill-typed is a
/// `DecodingError` naming its path.
public enum AnswerDecoder {
    public static func decode<T: Decodable>(_ type: T.Type, from json: JSON) throws -> T {
        try T(from: ValueDecoder(json, path: []))
    }
}

private struct ValueDecoder: Decoder {
    let value: JSON
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: JSON, path: [any CodingKey]) { (self.value, codingPath) = (value, path) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch(JSONObject.self, value, codingPath) }
        return KeyedDecodingContainer(Keyed(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([JSON].self, value, codingPath) }
        return Unkeyed(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(value: value, codingPath: codingPath) }
}

private func mismatch(_ type: Any.Type, _ value: JSON, _ path: [any CodingKey]) -> DecodingError {
    .typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(type), found \(value.encodedString.prefix(60))"))
}

/// A scalar of `value`, or a type mismatch.
private func scalar<T: Decodable>(_ type: T.Type, _ value: JSON, _ path: [any CodingKey]) throws -> T {
    switch value {
    case .string(let string) where T.self == String.self: return string as! T
    case .bool(let bool) where T.self == Bool.self: return bool as! T
    case .number where T.self == Int.self: if let int = value.intValue { return int as! T }
    case .number where T.self == Double.self: if let double = value.doubleValue { return double as! T }
    default: break
    }
    throw mismatch(type, value, path)
}

/// An integer of a narrower or unsigned type, when the number fits.
private func integer<T: FixedWidthInteger>(_ type: T.Type, _ value: JSON, _ path: [any CodingKey]) throws -> T {
    guard let int = value.intValue, let exact = T(exactly: int) else { throw mismatch(type, value, path) }
    return exact
}

private struct Single: SingleValueDecodingContainer {
    let value: JSON
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try scalar(type, value, codingPath) }
    func decode(_ type: String.Type) throws -> String { try scalar(type, value, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try scalar(type, value, codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try scalar(type, value, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type, value, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type, value, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type, value, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type, value, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type, value, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type, value, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type, value, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type, value, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type, value, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { Float(try scalar(Double.self, value, codingPath)) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: ValueDecoder(value, path: codingPath)) }
}

private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.keys.compactMap(Key.init(stringValue:)) }
    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func value(_ key: Key) throws -> JSON {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no member \(key.stringValue)"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key) == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(type, value(key), codingPath + [key]) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(type, value(key), codingPath + [key]) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(type, value(key), codingPath + [key]) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(type, value(key), codingPath + [key]) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, value(key), codingPath + [key]) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, value(key), codingPath + [key]) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, value(key), codingPath + [key]) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, value(key), codingPath + [key]) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, value(key), codingPath + [key]) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, value(key), codingPath + [key]) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, value(key), codingPath + [key]) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, value(key), codingPath + [key]) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, value(key), codingPath + [key]) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try scalar(Double.self, value(key), codingPath + [key])) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try T(from: ValueDecoder(value(key), path: codingPath + [key])) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value(key), path: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value(key), path: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ValueDecoder(.object(object), path: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { ValueDecoder(try value(key), path: codingPath + [key]) }
}

private struct Unkeyed: UnkeyedDecodingContainer {
    let elements: [JSON]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSON], codingPath: [any CodingKey]) { (self.elements, self.codingPath) = (elements, codingPath) }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private struct Index: CodingKey {
        var intValue: Int?
        var stringValue: String { String(intValue!) }
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }

    private mutating func next() throws -> (JSON, [any CodingKey]) {
        guard !isAtEnd else { throw DecodingError.valueNotFound(JSON.self, .init(codingPath: codingPath, debugDescription: "array ended")) }
        defer { currentIndex += 1 }
        return (elements[currentIndex], codingPath + [Index(intValue: currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { let (value, path) = try next(); return try scalar(type, value, path) }
    mutating func decode(_ type: String.Type) throws -> String { let (value, path) = try next(); return try scalar(type, value, path) }
    mutating func decode(_ type: Double.Type) throws -> Double { let (value, path) = try next(); return try scalar(type, value, path) }
    mutating func decode(_ type: Int.Type) throws -> Int { let (value, path) = try next(); return try scalar(type, value, path) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { let (value, path) = try next(); return try integer(type, value, path) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { let (value, path) = try next(); return try integer(type, value, path) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { let (value, path) = try next(); return try integer(type, value, path) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { let (value, path) = try next(); return try integer(type, value, path) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { let (value, path) = try next(); return try integer(type, value, path) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { let (value, path) = try next(); return try integer(type, value, path) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { let (value, path) = try next(); return try integer(type, value, path) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { let (value, path) = try next(); return try integer(type, value, path) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { let (value, path) = try next(); return try integer(type, value, path) }
    mutating func decode(_ type: Float.Type) throws -> Float { let (value, path) = try next(); return Float(try scalar(Double.self, value, path)) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { let (value, path) = try next(); return try T(from: ValueDecoder(value, path: path)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next()
        return try ValueDecoder(value, path: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next()
        return try ValueDecoder(value, path: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next()
        return ValueDecoder(value, path: path)
    }
}
