import StopSheetCore
import StopSheetProtocol

/// Response envelopes, written with `JSONWriter` around a result already encoded (once per data
/// refresh, for a sheet), so a result is never parsed or encoded again per request. Appends into
/// the caller's sink, normally the connection's output, which holds a big result by reference.
/// `append` writes no newline: the caller frames (single or batch); `appendLine` does.
public enum RPCResponse {
    /// `{"jsonrpc":"2.0","id":…,"result":…}` or `…,"error":…}`.
    static func append<Sink: JSONSink>(id: JSON, _ reply: RPCReply, to out: inout Sink) {
        out.writeObject { envelope in
            envelope.member(.jsonrpc, literal: #""2.0""#)
            envelope.member(.id, id)
            body(reply, &envelope)
        }
    }

    /// A single answer line, newline included; `.later` never reaches here.
    static func appendLine<Sink: JSONSink>(id: JSON, reply: RPCReply, to out: inout Sink) {
        append(id: id, reply, to: &out)
        out.write(UInt8(ascii: "\n"))
    }

    /// A single answer line for an id given as its encoded bytes (`ExactRequest`'s id token,
    /// which is its own encoding), newline included.
    static func appendLine<Sink: JSONSink>(encodedID: UnsafeRawBufferPointer, reply: RPCReply, to out: inout Sink) {
        out.writeObject { envelope in
            envelope.member(.jsonrpc, literal: #""2.0""#)
            envelope.member(.id, encoded: encodedID)
            body(reply, &envelope)
        }
        out.write(UInt8(ascii: "\n"))
    }

    /// A whole error line, for answers sent outside any request (server busy).
    public static func errorLine(id: JSON = .null, _ error: RPCError) -> [UInt8] {
        var out: [UInt8] = []
        appendLine(id: id, reply: .error(error), to: &out)
        return out
    }

    /// A notification line, newline included: `{"jsonrpc":"2.0","method":…,"params":…}`.
    static func notificationLine(method: String, params: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.writeObject { envelope in
            envelope.member(.jsonrpc, literal: #""2.0""#)
            envelope.member(.method, string: method)
            envelope.member(.params, encoded: params)
        }
        out.write(UInt8(ascii: "\n"))
        return out
    }

    private static func body<Sink: JSONSink>(_ reply: RPCReply, _ envelope: inout JSONWriter<Sink>) {
        switch reply {
        // A handler bug must not put a broken line on the wire.
        case .result(let bytes) where bytes.isEmpty: envelope.member(.result, .null)
        case .result(let bytes): envelope.member(.result, shared: bytes)
        case .error(let error): envelope.member(.error, error.json)
        case .later: envelope.member(.error, RPCError.internalError("a deferred reply on the direct path").json)
        }
    }
}
