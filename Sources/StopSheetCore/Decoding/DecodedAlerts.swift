/// What an alerts source decoded: the alerts, and what the feed says about itself — when it was
/// made, and on whose clock its times are written.
public struct DecodedAlerts: Sendable, Equatable {
    public var alerts: [Alert]
    /// The feed's own time of making: GTFS-realtime `header.timestamp`, CTA's `TimeStamp`. Nil
    /// when the feed gives none (the app API; a GTFS-realtime header without one, or with 0).
    public var producedAt: Instant?
    /// The zone of the feed's wall-clock times: `CTATime.zoneIdentifier` for CTA's own formats;
    /// nil for GTFS-realtime, whose times are instants and name no zone.
    public var timeZone: String?

    public init(alerts: [Alert], producedAt: Instant? = nil, timeZone: String? = nil) {
        self.alerts = alerts
        self.producedAt = producedAt
        self.timeZone = timeZone
    }
}
