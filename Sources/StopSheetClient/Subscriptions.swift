import StopSheetCore
import StopSheetProtocol

/// Push (protocol.md "Push"): subscribe, then read notifications as they come. Answers to other
/// calls on the same client still work: notifications arriving meanwhile are held for
/// `nextNotification`.
extension StopSheetClient {
    /// The current sheets (and health, when asked) and the subscription's id; from then on the
    /// daemon sends `stopSheetChanged` (and `healthChanged`) on this connection.
    public func subscribe(stopIds: [String], stopType: StopType? = nil, health: Bool = false) throws(ClientError) -> Reply<Answer.Subscribed> {
        typealias Params = Methods.Subscribe.Params
        let ids: [StopID]? = stopIds.isEmpty ? nil : try Self.param(.array(stopIds.map(JSON.string)), Params.CodingKeys.stopIds)
        return try call(Methods.Subscribe.self, Params(stopIds: ids, stopType: stopType, health: health ? true : nil))
    }

    public func unsubscribe(_ subscription: String) throws(ClientError) {
        _ = try call(Methods.Unsubscribe.self, Methods.Unsubscribe.Params(subscription: try Self.param(.string(subscription), Methods.Unsubscribe.Params.CodingKeys.subscription)))
    }

    /// The next notification: one held already, or the next line within `timeout`.
    public func nextNotification(timeout: Duration) throws(ClientError) -> PushNotification {
        if !heldNotifications.isEmpty { return try PushNotification(heldNotifications.removeFirst()) }
        while true {
            let message = try readMessage(timeout: timeout)
            // An answer here belongs to no call of ours (one sent without waiting): not ours to return.
            if Self.isNotification(message) { return try PushNotification(message) }
        }
    }
}

/// A notification, read into its params' type (`RPCNotificationType.Params`).
public enum PushNotification: Sendable {
    case stopSheetChanged(Reply<Notifications.StopSheetChanged.Params>)
    case healthChanged(Reply<Notifications.HealthChanged.Params>)
    /// A method this client does not know (a newer daemon's), with its params.
    case other(method: String, params: JSON)

    init(_ message: JSON) throws(ClientError) {
        let params = message[RPCEnvelope.params] ?? .null
        let method = message[RPCEnvelope.method]?.stringValue ?? ""
        switch method {
        case Notifications.StopSheetChanged.name: self = .stopSheetChanged(try Reply(params, of: Notifications.StopSheetChanged.self))
        case Notifications.HealthChanged.name: self = .healthChanged(try Reply(params, of: Notifications.HealthChanged.self))
        default: self = .other(method: method, params: params)
        }
    }

    /// The whole notification as it came, `{"jsonrpc", "method", "params"}`.
    public var message: JSON {
        let (method, params): (String, JSON) = switch self {
        case .stopSheetChanged(let change): (Notifications.StopSheetChanged.name, change.json)
        case .healthChanged(let change): (Notifications.HealthChanged.name, change.json)
        case .other(let method, let params): (method, params)
        }
        return .object(JSONObject([(RPCEnvelope.jsonrpc, .string(RPCEnvelope.version)), (RPCEnvelope.method, .string(method)), (RPCEnvelope.params, params)]))
    }

    /// The subscription it is about; nil for an unknown method.
    public var subscription: String? {
        switch self {
        case .stopSheetChanged(let change): change.subscription
        case .healthChanged(let change): change.subscription
        case .other: nil
        }
    }

    /// Counts this subscription's changes from 1; a jump means changes were coalesced.
    public var seq: Int? {
        switch self {
        case .stopSheetChanged(let change): change.seq
        case .healthChanged(let change): change.seq
        case .other: nil
        }
    }
}
