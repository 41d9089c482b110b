import StopSheetCore
import StopSheetProtocol

/// Response encoding: the envelope is spliced around bytes that are already JSON (a result
/// encoded once per data refresh), so a result is never parsed or encoded again per request.
/// Appends into the caller's buffer, normally the connection's output, so answering allocates
/// nothing once that buffer has grown. No trailing newline: the caller frames (single or batch).
public enum RPCResponse {
    public static func appendResult(id: JSON, result: [UInt8], to out: inout [UInt8]) {
        appendHead(id: id, to: &out)
        appendResultTail(result, to: &out)
    }

    /// A single answer line for an id given as its encoded bytes (`ExactRequest`'s id token,
    /// which is its own encoding), newline included.
    static func appendLine(encodedID: UnsafeRawBufferPointer, reply: RPCReply, to out: inout [UInt8]) {
        out.append(contentsOf: head)
        out.append(contentsOf: encodedID)
        appendTail(reply, to: &out)
        out.append(UInt8(ascii: "\n"))
    }

    private static func appendResultTail(_ result: [UInt8], to out: inout [UInt8]) {
        out.append(contentsOf: #","result":"#.utf8)
        // A handler bug must not put a broken line on the wire.
        if result.isEmpty { out.append(contentsOf: "null".utf8) } else { out.append(contentsOf: result) }
        out.append(UInt8(ascii: "}"))
    }

    public static func appendError(id: JSON, error: RPCError, to out: inout [UInt8]) {
        appendHead(id: id, to: &out)
        appendErrorTail(error, to: &out)
    }

    private static func appendErrorTail(_ error: RPCError, to out: inout [UInt8]) {
        out.append(contentsOf: #","error":"#.utf8)
        error.json.encode(into: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// A single (non-batch) answer line, newline included; `.later` never reaches here.
    static func appendLine(id: JSON, reply: RPCReply, to out: inout [UInt8]) {
        appendHead(id: id, to: &out)
        appendTail(reply, to: &out)
        out.append(UInt8(ascii: "\n"))
    }

    private static func appendTail(_ reply: RPCReply, to out: inout [UInt8]) {
        switch reply {
        case .result(let bytes): appendResultTail(bytes, to: &out)
        case .error(let error): appendErrorTail(error, to: &out)
        case .later: appendErrorTail(.internalError("a deferred reply on the direct path"), to: &out)
        }
    }

    /// A whole error line, for answers sent outside any request (server busy).
    public static func errorLine(id: JSON = .null, _ error: RPCError) -> [UInt8] {
        var out: [UInt8] = []
        appendError(id: id, error: error, to: &out)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    private static let head = Array(#"{"jsonrpc":"2.0","id":"#.utf8)

    private static func appendHead(id: JSON, to out: inout [UInt8]) {
        out.append(contentsOf: head)
        id.encode(into: &out)
    }
}
