/// Alerts from whatever the alerts upstream sent, its format detected from the body: the CTA
/// Customer Alerts API JSON (root member `CTAAlerts`), the app API (`alerts`), or a GTFS-realtime
/// `FeedMessage` (protobuf, told from JSON before any parse). `reading` picks GTFS-realtime
/// translations and says which `route_type`s are trains; `chicago`, the rules of
/// `CTATime.zoneIdentifier`, reads CTA's wall-clock times.
public enum AlertsDecoder {
    public static func decode(_ bytes: [UInt8], reading: FeedReading = .init(), chicago: TimeZoneRules,
                              limits: DecodingLimits = .init()) throws(DecodingFailure) -> [Alert] {
        try decodeFeed(bytes, reading: reading, chicago: chicago, limits: limits).alerts
    }

    /// The alerts with what the feed says of itself: its time of making and its zone.
    public static func decodeFeed(_ bytes: [UInt8], reading: FeedReading = .init(), chicago: TimeZoneRules,
                                  limits: DecodingLimits = .init()) throws(DecodingFailure) -> DecodedAlerts {
        if GTFSRealtimeAlertsDecoder.isFeedMessage(bytes) {
            return try GTFSRealtimeAlertsDecoder.decodeFeed(bytes, language: reading.language, trainRouteTypes: reading.trainRouteTypes, limits: limits)
        }
        let document = try UpstreamBody.json(bytes, limits: limits)
        if document["CTAAlerts"] != nil {
            return DecodedAlerts(alerts: try CTAAlertsDecoder.decode(document, chicago: chicago, limits: limits),
                                 producedAt: CTAAlertsDecoder.producedAt(document, chicago: chicago), timeZone: CTATime.zoneIdentifier)
        }
        if document["alerts"] != nil {
            return DecodedAlerts(alerts: try AppAlertsDecoder.decode(document, chicago: chicago, limits: limits), timeZone: CTATime.zoneIdentifier)
        }
        throw .unrecognisedFormat("\(UpstreamBody.describeRoot(document)); expected an object with 'CTAAlerts' or 'alerts'")
    }
}
