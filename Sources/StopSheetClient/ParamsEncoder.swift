import StopSheetCore
import StopSheetProtocol

/// A method's `Params` as the JSON a request carries: each member under its `CodingKeys` name, in
/// order, an absent optional left out (the daemon reads a left-out param as not given). Params are
/// strings, booleans, words and arrays of stop ids, so that is all this writes.
enum ParamsEncoder {
    /// nil for params with no member (`NoParams`): the request then carries none.
    static func json<Params: RPCParams>(_ params: Params) -> JSON? {
        let node = Node()
        do { try params.encode(to: ValueEncoder(node: node)) } catch { preconditionFailure("params' encoding threw: \(error)") }
        if case .object(let object) = node.json, object.members.isEmpty { return nil }
        return node.json
    }
}

/// Where one value's JSON is noted while its `encode(to:)` runs.
private final class Node {
    var json: JSON = .null

    func set<T: Encodable>(_ value: T) throws {
        switch value {
        case let string as String: json = .string(string)
        case let bool as Bool: json = .bool(bool)
        case let int as Int: json = .int(int)
        default: try value.encode(to: ValueEncoder(node: self))
        }
    }
}

private struct ValueEncoder: Encoder {
    let node: Node
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.json = .object(JSONObject())
        return KeyedEncodingContainer(Members(node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.json = .array([])
        return Elements(node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(node: node) }
}

private struct Members<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) { put(.null, key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let member = Node()
        try member.set(value)
        put(member.json, key)
    }

    private func put(_ value: JSON, _ key: Key) {
        guard case .object(var object) = node.json else { return }
        object.append(key.stringValue, value)
        node.json = .object(object)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("params nest no containers")
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { preconditionFailure("params nest no containers") }
    mutating func superEncoder() -> any Encoder { preconditionFailure("params have no super encoders") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { preconditionFailure("params have no super encoders") }
}

private struct Elements: UnkeyedEncodingContainer {
    let node: Node
    var codingPath: [any CodingKey] { [] }
    var count: Int { if case .array(let elements) = node.json { elements.count } else { 0 } }

    mutating func encodeNil() { append(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let element = Node()
        try element.set(value)
        append(element.json)
    }

    private func append(_ value: JSON) {
        guard case .array(var elements) = node.json else { return }
        elements.append(value)
        node.json = .array(elements)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("params nest no containers")
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { preconditionFailure("params nest no containers") }
    mutating func superEncoder() -> any Encoder { preconditionFailure("params have no super encoders") }
}

private struct Single: SingleValueEncodingContainer {
    let node: Node
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() { node.json = .null }
    mutating func encode<T: Encodable>(_ value: T) throws { try node.set(value) }
}
