import StopSheetCore

/// The embedded real CTA snapshot (alerts of 2015-02-14 and the 2021 'L' stops), served through
/// the same decoders as live data. Alert times are shifted so the capture's moment becomes the
/// daemon's start-up, so the demo shows the active and planned alerts it had then.
///
/// Threads: an immutable value; its refresher's thread fetches from it.
public struct DemoSource: Source {
    public let url: String
    private let bytes: [UInt8]

    /// `chicago`: the zone of the capture's wall-clock times (`CTATime.zoneIdentifier`).
    public init(_ cache: CacheName, rebasedTo startup: Instant, chicago: TimeZoneRules) {
        switch cache {
        case .alerts:
            url = "demo:alerts"
            bytes = DemoSource.rebase(PackageResources.alerts_json, to: startup, chicago: chicago)
        case .stations:
            url = "demo:stations"
            bytes = PackageResources.stops_csv
        }
    }

    public func fetch(validators: CacheValidators?, stop: StopFlag) -> Result<Fetched, FetchFailure> {
        .success(.body(bytes, validators: CacheValidators(), httpStatus: nil))
    }

    /// Shifts `EventStart`/`EventEnd` by (start-up − the capture's `TimeStamp`), rewriting them
    /// in the CTA JSON API's own wall-clock form (`2015-02-14T14:35:00`, Chicago) so the real
    /// decoder reads them as usual.
    static func rebase(_ bytes: [UInt8], to startup: Instant, chicago: TimeZoneRules) -> [UInt8] {
        guard let document = try? JSONParser.parse(bytes),
              let stamp = document["CTAAlerts"]?["TimeStamp"]?.stringValue, let captured = CTATime.instant(stamp, in: chicago)
        else { return bytes }
        let shift = startup.seconds(since: captured)
        func shifted(_ value: JSON, key: String?) -> JSON {
            switch value {
            case .object(let object):
                return .object(JSONObject(object.members.map { (key: $0.key, value: shifted($0.value, key: $0.key)) }))
            case .array(let elements):
                return .array(elements.map { shifted($0, key: key) })
            case .string(let text) where key == "EventStart" || key == "EventEnd" || key == "TimeStamp":
                guard let instant = CTATime.instant(text, in: chicago) else { return value }
                return .string(chicago.wallClock(instant.adding(seconds: shift)).iso8601)
            default:
                return value
            }
        }
        return shifted(document, key: nil).encoded
    }
}
