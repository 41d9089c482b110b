import StopSheetCore

/// A method's params as a type (`Methods.Station.Params`): one property per param, named as on
/// the wire by its `CodingKeys`, of a `ParamValue` type; optional when the param may be left out.
/// The daemon reads params into it before dispatch (`ParamsDecoder`), and `rpc.discover`
/// describes them from it (`ParamsShape`), so the check and the schema cannot disagree. A client
/// sends such a value (`Encodable`, an absent param left out: `StopSheetClient.call`).
public protocol RPCParams: Codable, Sendable {
    associatedtype CodingKeys: CodingKey
    /// A rule across params (`subscribe` needs something to follow), checked after each
    /// param's own: -32602 when broken.
    func validate() throws(RPCError)
}

extension RPCParams {
    public func validate() throws(RPCError) {}
}

/// The params of a method that takes none.
public struct NoParams: RPCParams, Equatable {
    public enum CodingKeys: CodingKey {}
    public init() {}
}

/// One param of a method, as `rpc.discover` lists it.
public struct RPCParam: Sendable, Equatable {
    public let name: String
    public let required: Bool
    public let schema: JSON
}

/// What a params type asks for, read off the type itself: its `init(from:)` is run once against
/// a recorder that notes each member by its `CodingKeys` name, whether it is read as required
/// (`decode`) or optional (`decodeIfPresent`), and its type's schema (`ParamValue.paramSchema`).
public struct ParamsShape: Sendable, Equatable {
    /// In the order the type reads them (its properties' order).
    public let params: [RPCParam]
    public let names: Set<String>

    public init<Params: RPCParams>(_ type: Params.Type) {
        let recorder = ParamsRecorder()
        do {
            _ = try Params(from: recorder)
        } catch {
            preconditionFailure("\(Params.self) could not be recorded: \(error)")
        }
        params = recorder.params
        names = Set(params.map(\.name))
    }

    /// -32602 for a member that is none of these.
    func unknown(_ name: String) -> RPCError {
        .invalidParams(names.isEmpty ? "unknown param '\(name)' (this method takes none)"
                                     : "unknown param '\(name)' (expected \(names.sorted().joined(separator: ", ")))")
    }
}

/// Reads a request's params (`JSON`, as parsed off the wire) into a method's params type, once,
/// before dispatch, with -32602 naming what is wrong, in this order: params that are not an
/// object (`null` or none are no params), an unknown member (naming the expected ones), then each
/// param in the type's order (missing when required; `null` is as absent), then the type's own
/// `validate()`. Made once per method (it records the type's shape) and then shared.
public struct ParamsDecoder<Params: RPCParams>: Sendable {
    public let shape: ParamsShape

    public init() { shape = ParamsShape(Params.self) }

    public func decode(_ params: JSON?) throws(RPCError) -> Params {
        let object: JSONObject
        switch params {
        case nil, .null?: object = JSONObject()
        case .object(let value)?: object = value
        default: throw .invalidParams("params must be an object")
        }
        if let unknown = object.keys.first(where: { !shape.names.contains($0) }) { throw shape.unknown(unknown) }
        let value: Params
        do {
            value = try Params(from: ParamsReader(object: object))
        } catch let error as RPCError {
            throw error
        } catch {
            throw .invalidParams("\(error)")
        }
        try value.validate()
        return value
    }
}

// MARK: - Reading

private struct ParamsReader: Decoder {
    let object: JSONObject
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ParamsContainer(object: object))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw RPCError.invalidParams("params must be an object") }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw RPCError.invalidParams("params must be an object") }
}

private struct ParamsContainer<Key: CodingKey>: FlatParamsContainer {
    let object: JSONObject
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { object.keys.compactMap(Key.init(stringValue:)) }

    /// The member's value, nil when absent or `null`.
    private func value(_ key: Key) -> JSON? {
        guard let value = object[key.stringValue], value != .null else { return nil }
        return value
    }

    func contains(_ key: Key) -> Bool { value(key) != nil }
    /// Never called: `ParamsShape`, recorded first, refuses a params type that reads by it.
    func decodeNil(forKey key: Key) throws -> Bool { preconditionFailure("param '\(key.stringValue)' read by decodeNil") }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try required(type, key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try optional(type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }

    func required<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        let reader = Self.reader(type, key)
        guard let json = value(key) else { throw RPCError.invalidParams("missing '\(key.stringValue)'") }
        return try reader.param(json, name: key.stringValue) as! T
    }

    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        let reader = Self.reader(type, key)
        guard let json = value(key) else { return nil }
        return try reader.param(json, name: key.stringValue) as? T
    }

    /// A param's type must declare its rule: a plain `String` or `Int` would take any value.
    private static func reader<T>(_ type: T.Type, _ key: Key) -> any ParamValue.Type {
        guard let value = T.self as? any ParamValue.Type else { preconditionFailure("param '\(key.stringValue)' is a \(T.self), not a ParamValue") }
        return value
    }
}

// MARK: - Recording

/// The decoder `ParamsShape` runs a params type against: each member read is noted, and answered
/// with its type's placeholder (or nil, when read as optional).
private final class ParamsRecorder: Decoder {
    var params: [RPCParam] = []
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RecordingContainer<Key>(recorder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { preconditionFailure("params are an object") }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { preconditionFailure("params are an object") }

    func note<T>(_ type: T.Type, _ key: some CodingKey, required: Bool) -> any ParamValue.Type {
        guard let value = T.self as? any ParamValue.Type else { preconditionFailure("param '\(key.stringValue)' is a \(T.self), not a ParamValue") }
        precondition(!params.contains { $0.name == key.stringValue }, "param '\(key.stringValue)' read twice")
        params.append(RPCParam(name: key.stringValue, required: required, schema: value.paramSchema))
        return value
    }
}

private struct RecordingContainer<Key: CodingKey>: FlatParamsContainer {
    let recorder: ParamsRecorder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    /// A member read by `decode` is required and by `decodeIfPresent` optional; one read by
    /// `decodeNil` would be neither, so no params type may (its shape could not be told).
    func decodeNil(forKey key: Key) throws -> Bool { preconditionFailure("param '\(key.stringValue)' read by decodeNil: read it by decode or decodeIfPresent") }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try required(type, key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { optional(type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { optional(type, key) }

    func required<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T { placeholder(recorder.note(type, key, required: true)) as! T }
    private func optional<T>(_ type: T.Type, _ key: Key) -> T? {
        _ = recorder.note(type, key, required: false)
        return nil
    }
    private func placeholder<V: ParamValue>(_ type: V.Type) -> V { V.placeholder }
}

// MARK: - The overloads Decoder requires

/// A container of flat params, each member a `ParamValue` read by `required`: the concrete
/// `decode` overloads `KeyedDecodingContainerProtocol` requires all go there, and nothing nests.
private protocol FlatParamsContainer: KeyedDecodingContainerProtocol {
    func required<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T
}

extension FlatParamsContainer {
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try required(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try required(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try required(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try required(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try required(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try required(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try required(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try required(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try required(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try required(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try required(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try required(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try required(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try required(type, key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        preconditionFailure("params are flat")
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { preconditionFailure("params are flat") }
    func superDecoder() throws -> any Decoder { preconditionFailure("params are flat") }
    func superDecoder(forKey key: Key) throws -> any Decoder { preconditionFailure("params are flat") }
}
