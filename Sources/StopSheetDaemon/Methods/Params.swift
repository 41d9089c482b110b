import StopSheetCore
import StopSheetProtocol

/// Reads a method's params: by name only, with -32602 naming what is wrong.
struct Params {
    private let object: JSONObject

    /// `method`'s params, by `RPCMethod`'s list of names.
    init(_ params: JSON?, of method: RPCMethod) throws(RPCError) { try self.init(params, allowed: method.paramNames) }

    init(_ params: JSON?, allowed: Set<String>) throws(RPCError) {
        switch params {
        case nil, .null?: object = JSONObject()
        case .object(let object)?: self.object = object
        default: throw .invalidParams("params must be an object")
        }
        if let unknown = object.keys.first(where: { !allowed.contains($0) }) {
            throw .invalidParams(allowed.isEmpty ? "unknown param '\(unknown)' (this method takes none)"
                                                 : "unknown param '\(unknown)' (expected \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    /// A stop id: a string `StopSheetQuery.isStopID` accepts, or a non-negative integer.
    func stopID(_ name: String = ParamName.stopId, required: Bool = true) throws(RPCError) -> String? {
        switch object[name] {
        case nil, .null?:
            if required { throw .invalidParams("missing '\(name)'") }
            return nil
        case let value?:
            return try Self.stopID(value, name: name)
        }
    }

    /// An array of stop ids, each by `stopID`'s rule; nil when absent.
    func stopIDs(_ name: String) throws(RPCError) -> [String]? {
        switch object[name] {
        case nil, .null?: return nil
        case .array(let values)?:
            var ids: [String] = []
            for value in values { ids.append(try Self.stopID(value, name: name + "[]")) }
            return ids
        default: throw .invalidParams("'\(name)' must be an array of stop ids")
        }
    }

    private static func stopID(_ value: JSON, name: String) throws(RPCError) -> String {
        switch value {
        case .string(let text) where StopSheetQuery.isStopID(text): return text
        case .number where (value.intValue ?? -1) >= 0: return String(value.intValue!)
        default: throw notAStopID(name)
        }
    }

    func bool(_ name: String) throws(RPCError) -> Bool? {
        switch object[name] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        default: throw .invalidParams("'\(name)' must be true or false")
        }
    }

    static func notAStopID(_ name: String) -> RPCError {
        .invalidParams("'\(name)' must be a stop id (a non-empty string or a non-negative integer)")
    }

    func string(_ name: String, maxLength: Int = RPCParam.maxStringBytes) throws(RPCError) -> String? {
        switch object[name] {
        case nil, .null?: return nil
        case .string(let text)? where text.utf8.count <= maxLength: return text
        default: throw .invalidParams("'\(name)' must be a string of at most \(maxLength) bytes")
        }
    }

    /// A string param naming a case of `Choice`; `fallback` when absent.
    func oneOf<Choice: RawRepresentable & CaseIterable>(_ name: String, default fallback: Choice) throws(RPCError) -> Choice
    where Choice.RawValue == String {
        guard let value = try string(name) else { return fallback }
        guard let choice = Choice(rawValue: value) else {
            throw .invalidParams("'\(name)' must be one of \(Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))")
        }
        return choice
    }
}
