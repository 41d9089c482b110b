import StopSheetCore

// Thin views of the answers: the parsed JSON as the daemon sent it, with accessors for the fields
// callers test most. protocol.md is the model; nothing here repeats the daemon's types.

/// A `stopSheet` result.
public struct StopSheetReply: Sendable {
    public let json: JSON

    public var stopType: StopType? { json["stopType"]?.stringValue.flatMap(StopType.init(rawValue:)) }
    public var stationId: String? { json["stationId"]?.stringValue }
    public var stationName: String? { json["stationName"]?.stringValue }
    /// `1 train service alert`, `N train service alerts`, or nil when no glyph is shown.
    public var alertGlyphLabel: String? { json["alertGlyph"]?["accessibilityLabel"]?.stringValue }
    /// `good`, `warn` or `muted`; nil on a bus sheet.
    public var accessibilityTone: String? { json["accessibilityButton"]?["tone"]?.stringValue }
    /// The accessibility dialog's one sentence.
    public var accessibilityMessage: String? { json["accessibilityButton"]?["alert"]?["message"]?.stringValue }
}

/// A `health` result.
public struct HealthReply: Sendable {
    public let json: JSON

    /// `ready`, `degraded`, `starting` or `unavailable`.
    public var status: String? { json["status"]?.stringValue }
    public var isReady: Bool { status == "ready" }
    /// The zone of the daemon's times (`America/Chicago`); nil from a daemon that does not say.
    public var timeZone: String? { json["timeZone"]?.stringValue }
}

/// A `version` result.
public struct VersionReply: Sendable {
    public let json: JSON

    public var name: String? { json["name"]?.stringValue }
    public var version: String? { json["version"]?.stringValue }
    public var protocolVersion: Int? { json["protocol"]?.intValue }
}

/// A `stats` result.
public struct StatsReply: Sendable {
    public let json: JSON

    /// Also for a `stats` result read off a connection of the caller's own.
    public init(json: JSON) { self.json = json }

    /// When counting began (the daemon's start), ISO 8601.
    public var since: String? { json["since"]?.stringValue }
    /// Requests for `method`, or for any unregistered name under `"unknown"`.
    public func requests(_ method: String) -> Int? { json["requests"]?[method]?.intValue }
    /// Error answers sent with `code`.
    public func errors(_ code: Int) -> Int? { json["errors"]?[String(code)]?.intValue }
    /// Good and failed refresh rounds of one cache (`alerts`, `stations`).
    public func refreshes(_ cache: String) -> (ok: Int, failed: Int)? {
        guard let entry = json["refreshes"]?[cache], let ok = entry["ok"]?.intValue, let failed = entry["failed"]?.intValue else { return nil }
        return (ok, failed)
    }
}
