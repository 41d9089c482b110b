import StopSheetCore

/// The embedded real CTA snapshot (alerts of 2015-02-14 and the 2021 'L' stops), served through
/// the same decoders as live data. Alert times are shifted so the capture's moment becomes the
/// daemon's start-up, so the demo shows the active and planned alerts it had then.
///
/// Threads: an immutable value; its refresher's thread fetches from it.
public struct DemoSource: Source {
    public let url: String
    private let bytes: [UInt8]

    public init(_ cache: CacheName, rebasedTo startup: Instant) {
        switch cache {
        case .alerts:
            url = "demo:alerts"
            bytes = DemoSource.rebase(PackageResources.alerts_json, to: startup)
        case .stations:
            url = "demo:stations"
            bytes = PackageResources.stops_csv
        }
    }

    public func fetch(validators: CacheValidators?, stop: StopFlag) -> Result<Fetched, FetchFailure> {
        .success(.body(bytes, validators: CacheValidators(), httpStatus: nil))
    }

    /// Shifts `EventStart`/`EventEnd` by (start-up − the capture's `TimeStamp`), rewriting them
    /// in the CTA JSON API's own wall-clock form so the real decoder reads them as usual.
    static func rebase(_ bytes: [UInt8], to startup: Instant) -> [UInt8] {
        guard let document = try? JSONParser.parse(bytes),
              let stamp = document["CTAAlerts"]?["TimeStamp"]?.stringValue, let captured = CTATime.instant(stamp)
        else { return bytes }
        let shift = startup.seconds(since: captured)
        func shifted(_ value: JSON, key: String?) -> JSON {
            switch value {
            case .object(let object):
                return .object(JSONObject(object.members.map { (key: $0.key, value: shifted($0.value, key: $0.key)) }))
            case .array(let elements):
                return .array(elements.map { shifted($0, key: key) })
            case .string(let text) where key == "EventStart" || key == "EventEnd" || key == "TimeStamp":
                guard let instant = CTATime.instant(text) else { return value }
                return .string(wallClockText(instant.adding(seconds: shift)))
            default:
                return value
            }
        }
        return shifted(document, key: nil).encoded
    }

    /// `2015-02-14T14:35:00`, Chicago wall clock, as the CTA JSON API writes times.
    static func wallClockText(_ instant: Instant) -> String {
        String(instant.description.prefix(19))
    }
}
