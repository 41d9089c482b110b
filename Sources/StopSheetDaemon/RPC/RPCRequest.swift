import StopSheetCore
import StopSheetProtocol

/// A valid JSON-RPC 2.0 request object.
public struct RPCRequest: Sendable, Equatable {
    /// nil when the `id` member is absent: a notification, which gets no response of any kind.
    /// Otherwise a string, a number (its literal text kept) or null, echoed back as sent.
    public var id: JSON?
    public var method: String
    /// An object or an array when present (JSON-RPC 2.0 §4.2).
    public var params: JSON?

    public init(id: JSON?, method: String, params: JSON? = nil) {
        self.id = id
        self.method = method
        self.params = params
    }

    public var isNotification: Bool { id == nil }
}

/// One element of a message: a request to dispatch, or one that is answered with an error as is.
public enum RPCEntry: Sendable, Equatable {
    case request(RPCRequest)
    /// Always answered, even without an `id`: an invalid object is not a valid notification
    /// (JSON-RPC 2.0 §5, examples "invalid Request object" and "invalid Batch"). `id` is the
    /// request's id when it could be read and was of a valid type, else null.
    case invalid(RPCError, id: JSON)
}

/// What one line holds, after JSON-RPC 2.0 validation.
///
/// A failure of the whole line (invalid JSON, an empty or oversized batch) is a `.single` invalid
/// entry with id null: it gets exactly one error response, never an array.
public enum RPCMessage: Sendable, Equatable {
    case single(RPCEntry)
    case batch([RPCEntry])

    public static let defaultMaxBatch = 64

    /// nil for a blank line (empty or whitespace only): nothing to answer. Interactive clients
    /// (`socat`, telnet) send them and a parse error for each would only be noise.
    ///
    /// Nesting deeper than `maxDepth` is a parse error (-32700), not an invalid request: the
    /// parser stops before building the value, so the id is unknown. Invalid UTF-8 anywhere is a
    /// parse error too (outside strings any byte ≥ 0x80 is already not JSON).
    public static func parse(_ line: some Collection<UInt8>, maxDepth: Int = JSONParser.defaultMaxDepth,
                             maxBatch: Int = defaultMaxBatch) -> RPCMessage?
    {
        if line.allSatisfy(isJSONWhitespace) { return nil }
        let json: JSON
        do {
            json = try JSONParser.parse(line, maxDepth: maxDepth)
        } catch {
            return .single(.invalid(.parseError(error.description), id: .null))
        }
        guard case .array(let elements) = json else { return .single(entry(json)) }
        if elements.isEmpty { return .single(.invalid(.invalidRequest("empty batch"), id: .null)) }
        if elements.count > maxBatch {
            return .single(.invalid(.invalidRequest("batch of \(elements.count) requests exceeds the limit of \(maxBatch)"), id: .null))
        }
        return .batch(elements.map(entry))
    }

    /// Validates one request object (JSON-RPC 2.0 §4).
    public static func entry(_ json: JSON) -> RPCEntry {
        guard case .object(let object) = json else { return .invalid(.invalidRequest("a request must be an object"), id: .null) }
        // Read the id first so that every later error can echo it.
        let id: JSON?
        switch object["id"] {
        case nil: id = nil
        case .some(let value):
            switch value {
            case .string, .number, .null: id = value
            case .bool, .array, .object: return .invalid(.invalidRequest("id must be a string, a number or null"), id: .null)
            }
        }
        let echo = id ?? .null
        guard object["jsonrpc"] == .string("2.0") else { return .invalid(.invalidRequest(#"jsonrpc must be "2.0""#), id: echo) }
        guard case .string(let method)? = object["method"] else { return .invalid(.invalidRequest("method must be a string"), id: echo) }
        let params = object["params"]
        switch params {
        case nil, .array?, .object?: break
        default: return .invalid(.invalidRequest("params must be an object or an array"), id: echo)
        }
        return .request(RPCRequest(id: id, method: method, params: params))
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
