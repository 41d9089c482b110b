import StopSheetCore
import StopSheetProtocol

/// An answer read into its type (`Answer`, the protocol's), with the JSON it was read from, for
/// a caller that shows the answer exactly as sent (`stopsheetctl --json`). The type's members
/// read through it: `reply.stationName`.
@dynamicMemberLookup
public struct Reply<Value: Decodable & Sendable>: Sendable {
    public let value: Value
    /// The result as the daemon sent it.
    public let json: JSON

    /// Fails with `.unexpectedAnswer` when `json` is not a `Value` (a member missing or ill-typed;
    /// members the type does not know, a newer daemon's, are ignored).
    public init(_ json: JSON) throws(ClientError) {
        do { value = try AnswerDecoder.decode(Value.self, from: json) } catch { throw .unexpectedAnswer("\(error)") }
        self.json = json
    }

    public subscript<Member>(dynamicMember member: KeyPath<Value, Member>) -> Member { value[keyPath: member] }
}

extension Answer.Health {
    public var isReady: Bool { status == .ready }
}

extension Answer.Stats {
    /// Requests for `method`, or for any unregistered name under `"unknown"`.
    public func requests(_ method: String) -> Int? { requests[method] }
    /// Error answers sent with `code`.
    public func errors(_ code: Int) -> Int? { errors[String(code)] }
}
