import StopSheetCore

/// The type of one param (`stopId`, `stationName`, `what`…): its rule, the -32602 detail when a
/// value breaks it, and its JSON Schema, declared together so that the daemon's check
/// (`ParamsDecoder`) and `rpc.discover`'s schema (`ParamsShape`) read the same declaration.
///
/// A client encodes it as the daemon reads it (`Encodable`), so a method's `Params` value is what
/// the client sends.
public protocol ParamValue: Codable, Sendable {
    /// The value of the param `name` from its JSON (present and not `null`), or -32602 saying
    /// what `name` must be.
    static func param(_ json: JSON, name: String) throws(RPCError) -> Self
    /// Its JSON Schema, for `rpc.discover`.
    static var paramSchema: JSON { get }
    /// Any value of the type: what the schema recorder (`ParamsShape`) hands back while it notes
    /// the params' members. Never sent or served.
    static var placeholder: Self { get }
}

/// A limit on a string param, in UTF-8 bytes: the unit the daemon counts in. Each constrained
/// type declares its limit once (`StopID.limit`, `ParamText.limit`); the check (`admits`), the
/// -32602 detail and the schema read it.
public struct ByteLimit: Sendable, Equatable {
    public let maxBytes: Int
    /// Whether the empty string is refused.
    public let nonEmpty: Bool

    @inlinable
    public init(maxBytes: Int, nonEmpty: Bool = false) {
        self.maxBytes = maxBytes
        self.nonEmpty = nonEmpty
    }

    /// Whether `text` is within the limit, counted in UTF-8 bytes (not characters).
    @inlinable @inline(__always)
    public func admits(_ text: String) -> Bool {
        let bytes = text.utf8.count
        return bytes <= maxBytes && (!nonEmpty || bytes > 0)
    }

    /// The extension member that gives a string's limit in UTF-8 bytes, the daemon's unit.
    public static let maxBytesMember = "x-maxBytes"

    /// The schema of a string within the limit: the limit said in words and in `x-maxBytes`.
    /// JSON Schema's `maxLength` counts characters; it is kept at the same number, a bound every
    /// string within the byte limit meets, so that generic validators check what they can.
    /// `minLength` 1 is exact in either unit.
    public var schema: JSON {
        var schema = JSONObject([("type", "string"), ("description", .string("at most \(maxBytes) bytes of UTF-8"))])
        if nonEmpty { schema.append("minLength", 1) }
        schema.append("maxLength", .int(maxBytes))
        schema.append(Self.maxBytesMember, .int(maxBytes))
        return .object(schema)
    }
}

/// A stop id as a param: a non-empty string of at most 32 bytes (`limit`), or a non-negative
/// integer, which the daemon reads as its decimal digits (`40380` is `"40380"`).
public struct StopID: ParamValue, Hashable, CustomStringConvertible {
    /// The id as the daemon looks it up.
    public let text: String

    @inlinable
    public static var limit: ByteLimit { ByteLimit(maxBytes: 32, nonEmpty: true) }

    /// An id within `limit`; nil for one the daemon would refuse.
    public init?(_ text: String) {
        guard Self.limit.admits(text) else { return nil }
        self.text = text
    }

    private init(checked text: String) { self.text = text }

    public static func param(_ json: JSON, name: String) throws(RPCError) -> StopID {
        switch json {
        case .string(let text) where limit.admits(text): return StopID(checked: text)
        case .number where (json.intValue ?? -1) >= 0: return StopID(checked: String(json.intValue!))
        default: throw mismatch(name)
        }
    }

    /// The -32602 of a param `name` that is not a stop id.
    public static func mismatch(_ name: String) -> RPCError {
        .invalidParams("'\(name)' must be a stop id (a non-empty string or a non-negative integer)")
    }

    public static var paramSchema: JSON { ["oneOf": [limit.schema, ["type": "integer", "minimum": 0]]] }
    public static var placeholder: StopID { StopID(checked: "0") }
    public var description: String { text }

    /// From a decoder other than `ParamsDecoder` (which reads `param(_:name:)` directly): a
    /// string or an integer, by the same rule.
    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        let json: JSON
        if let int = try? value.decode(Int.self) { json = .int(int) } else { json = .string(try value.decode(String.self)) }
        self = try Self.param(json, name: decoder.codingPath.last?.stringValue ?? "stopId")
    }

    /// As a string, the daemon's reading of it.
    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(text)
    }
}

/// Free text as a param (`stationName`, a subscription id): a string of at most 200 bytes.
public struct ParamText: ParamValue, Hashable, CustomStringConvertible {
    public let text: String

    @inlinable
    public static var limit: ByteLimit { ByteLimit(maxBytes: 200) }

    /// Text within `limit`; nil for text the daemon would refuse.
    public init?(_ text: String) {
        guard Self.limit.admits(text) else { return nil }
        self.text = text
    }

    private init(checked text: String) { self.text = text }

    public static func param(_ json: JSON, name: String) throws(RPCError) -> ParamText {
        guard case .string(let text) = json, limit.admits(text) else {
            throw .invalidParams("'\(name)' must be a string of at most \(limit.maxBytes) bytes")
        }
        return ParamText(checked: text)
    }

    public static var paramSchema: JSON { limit.schema }
    public static var placeholder: ParamText { ParamText(checked: "") }
    public var description: String { text }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = try Self.param(.string(text), name: decoder.codingPath.last?.stringValue ?? "text")
    }

    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(text)
    }
}

/// A param that names one of a closed set of words (`stopType`, `what`): a string of
/// `ParamText`'s rule that is one of the cases.
public protocol ParamWord: ParamValue, RawRepresentable<String>, CaseIterable {}

extension ParamWord {
    public static func param(_ json: JSON, name: String) throws(RPCError) -> Self {
        let text = try ParamText.param(json, name: name).text
        guard let word = Self(rawValue: text) else {
            throw .invalidParams("'\(name)' must be one of \(allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))")
        }
        return word
    }

    public static var paramSchema: JSON { ["type": "string", "enum": .array(allCases.map { .string($0.rawValue) })] }
    public static var placeholder: Self { allCases.first! }
}

extension StopType: ParamWord {}
extension RefreshTarget: Codable, ParamWord {}

extension Bool: ParamValue {
    public static func param(_ json: JSON, name: String) throws(RPCError) -> Bool {
        guard case .bool(let value) = json else { throw .invalidParams("'\(name)' must be true or false") }
        return value
    }

    public static var paramSchema: JSON { ["type": "boolean"] }
    public static var placeholder: Bool { false }
}

/// A list of stop ids (`subscribe`'s `stopIds`): each element by `StopID`'s rule, named
/// `name[]` when it breaks it.
extension Array: ParamValue where Element == StopID {
    public static func param(_ json: JSON, name: String) throws(RPCError) -> [StopID] {
        guard case .array(let values) = json else { throw .invalidParams("'\(name)' must be an array of stop ids") }
        var ids: [StopID] = []
        ids.reserveCapacity(values.count)
        for value in values { ids.append(try StopID.param(value, name: name + "[]")) }
        return ids
    }

    public static var paramSchema: JSON { ["type": "array", "items": StopID.paramSchema] }
    public static var placeholder: [StopID] { [] }
}
