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

    /// `json`, the result of `method` (or a notification's params), read as a `Value`. Members
    /// the type does not know (a newer daemon's, protocol.md's minor additions) are ignored. A
    /// required member that is not there is `.missingMember`, named with its method (a daemon of
    /// an older protocol); anything else that does not fit is `.unexpectedAnswer`.
    public init(_ json: JSON, of method: String) throws(ClientError) {
        do {
            value = try AnswerDecoder.decode(Value.self, from: json)
        } catch DecodingError.keyNotFound(let key, let context) {
            let path = (context.codingPath + [key]).map { $0.intValue.map(String.init) ?? $0.stringValue }
            throw .missingMember(method: method, member: path.joined(separator: "."))
        } catch {
            throw .unexpectedAnswer("\(method): \(error)")
        }
        self.json = json
    }

    /// A notification's params, read into its type: the notification type names both.
    init<Notification: RPCNotificationType>(_ json: JSON, of notification: Notification.Type) throws(ClientError) where Notification.Params == Value {
        try self.init(json, of: notification.name)
    }

    /// A part of another answer (`subscribe`'s `health`) as a reply of its own: `value` read
    /// already, `json` as sent.
    init(_ value: Value, json: JSON) {
        self.value = value
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
