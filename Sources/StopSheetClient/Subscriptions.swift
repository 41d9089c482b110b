import StopSheetCore
import StopSheetProtocol

/// Push (protocol.md "Push"): subscribe, then read notifications as they come. Answers to other
/// calls on the same client still work: notifications arriving meanwhile are held for
/// `nextNotification`.
extension StopSheetClient {
    /// The current sheets (and health, when asked) and the subscription's id; from then on the
    /// daemon sends `stopSheetChanged` (and `healthChanged`) on this connection.
    public func subscribe(stopIds: [String], stopType: StopType? = nil, health: Bool = false) throws(ClientError) -> SubscribeReply {
        var params = JSONObject()
        if !stopIds.isEmpty { params.append(ParamName.stopIds, .array(stopIds.map(JSON.string))) }
        if let stopType { params.append(ParamName.stopType, .string(stopType.rawValue)) }
        if health { params.append(ParamName.health, true) }
        return SubscribeReply(json: try call(.subscribe, params: .object(params)))
    }

    public func unsubscribe(_ subscription: String) throws(ClientError) {
        _ = try call(.unsubscribe, params: [ParamName.subscription: .string(subscription)])
    }

    /// The next notification: one held already, or the next line within `timeout`.
    public func nextNotification(timeout: Duration) throws(ClientError) -> PushNotification {
        if !heldNotifications.isEmpty { return PushNotification(json: heldNotifications.removeFirst()) }
        while true {
            let message = try readMessage(timeout: timeout)
            // An answer here belongs to no call of ours (one sent without waiting): not ours to return.
            if Self.isNotification(message) { return PushNotification(json: message) }
        }
    }
}

/// A `subscribe` result.
public struct SubscribeReply: Sendable {
    public let json: JSON

    public var subscription: String? { json["subscription"]?.stringValue }
    /// Each stop id as given, with its sheet.
    public var sheets: [(stopId: String, sheet: StopSheetReply)] {
        guard case .object(let object)? = json["sheets"] else { return [] }
        return object.members.map { ($0.key, StopSheetReply(json: $0.value)) }
    }
    public var health: HealthReply? { json["health"].map(HealthReply.init) }
}

/// A `stopSheetChanged` or `healthChanged` notification.
public struct PushNotification: Sendable {
    public let json: JSON

    public var method: String? { json["method"]?.stringValue }
    public var subscription: String? { json["params"]?["subscription"]?.stringValue }
    /// Counts this subscription's changes from 1; a jump means changes were coalesced.
    public var seq: Int? { json["params"]?["seq"]?.intValue }
    public var stopId: String? { json["params"]?["stopId"]?.stringValue }
    /// The new sheet; nil for health, and for a stop no longer known (`sheet` null).
    public var sheet: StopSheetReply? {
        guard let sheet = json["params"]?["sheet"], sheet != .null else { return nil }
        return StopSheetReply(json: sheet)
    }
    public var health: HealthReply? { json["params"]?["health"].map(HealthReply.init) }
}
