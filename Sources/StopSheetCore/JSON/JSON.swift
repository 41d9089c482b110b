/// A JSON value as it appears on the wire.
///
/// Numbers keep their literal text so that an `id` like `1.50` or `12345678901234567890`
/// is echoed back byte for byte; callers convert with `intValue` / `doubleValue`.
/// Objects keep member order so that encoded answers are deterministic.
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSON])
    case object(JSONObject)

    public static func int(_ value: Int) -> JSON { .number(String(value)) }
}

/// An ordered JSON object. Lookups are linear: objects here are small (tens of members).
public struct JSONObject: Sendable, Equatable {
    public var members: [(key: String, value: JSON)]

    public init(_ members: [(key: String, value: JSON)] = []) { self.members = members }

    /// The last member with this key wins, as in most JSON implementations.
    public subscript(key: String) -> JSON? {
        for member in members.reversed() where member.key == key { return member.value }
        return nil
    }

    public var keys: [String] { members.map(\.key) }

    public mutating func append(_ key: String, _ value: JSON) { members.append((key, value)) }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
    public init(nilLiteral: ()) { self = .null }
}

extension JSON {
    public subscript(key: String) -> JSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    public var arrayValue: [JSON]? {
        if case .array(let array) = self { return array }
        return nil
    }

    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    public var isNull: Bool { self == .null }

    /// An integral number that fits in `Int` (`2`, `2.0` and `2e0` do; `2.5` does not).
    public var intValue: Int? {
        guard case .number(let text) = self else { return nil }
        if let value = Int(text) { return value }
        guard let double = Double(text), abs(double) < 9.0e15 else { return nil }
        return Int(exactly: double)
    }

    public var doubleValue: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    /// A value that upstreams send as a string or a number, as text (`"40380"` or `40380`).
    public var scalarText: String? {
        switch self {
        case .string(let string): return string
        case .number(let text): return text
        default: return nil
        }
    }
}
