/// Alerts from whatever the alerts upstream sent, its format detected from the body: the CTA
/// Customer Alerts API JSON (root member `CTAAlerts`), the app API (`alerts`), or a GTFS-realtime
/// `FeedMessage` (protobuf, told from JSON before any parse). `language` picks GTFS-realtime
/// translations; `chicago`, the rules of `CTATime.zoneIdentifier`, reads CTA's wall-clock times.
public enum AlertsDecoder {
    public static func decode(_ bytes: [UInt8], language: String = "en", chicago: TimeZoneRules, limits: DecodingLimits = .init()) throws(DecodingFailure) -> [Alert] {
        if GTFSRealtimeAlertsDecoder.isFeedMessage(bytes) { return try GTFSRealtimeAlertsDecoder.decode(bytes, language: language, limits: limits) }
        let document = try UpstreamBody.json(bytes, limits: limits)
        if document["CTAAlerts"] != nil { return try CTAAlertsDecoder.decode(document, chicago: chicago, limits: limits) }
        if document["alerts"] != nil { return try AppAlertsDecoder.decode(document, chicago: chicago, limits: limits) }
        throw .unrecognisedFormat("\(UpstreamBody.describeRoot(document)); expected an object with 'CTAAlerts' or 'alerts'")
    }
}
