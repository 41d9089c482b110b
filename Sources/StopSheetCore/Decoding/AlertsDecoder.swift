/// Alerts from whatever the alerts upstream sent, its format detected from the body: the CTA
/// Customer Alerts API JSON (root member `CTAAlerts`) or the app API (`alerts`).
public enum AlertsDecoder {
    public static func decode(_ bytes: [UInt8], limits: DecodingLimits = .init()) throws(DecodingFailure) -> [Alert] {
        let document = try UpstreamBody.json(bytes, limits: limits)
        if document["CTAAlerts"] != nil { return try CTAAlertsDecoder.decode(document, limits: limits) }
        if document["alerts"] != nil { return try AppAlertsDecoder.decode(document, limits: limits) }
        throw .unrecognisedFormat("\(UpstreamBody.describeRoot(document)); expected an object with 'CTAAlerts' or 'alerts'")
    }
}
