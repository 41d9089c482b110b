import CDemoData
import StopSheetCore

/// The embedded real CTA snapshot (alerts of 2015-02-14 and the 2021 'L' stops), served through
/// the same decoders as live data. Alert times are shifted so the capture's moment becomes the
/// daemon's start-up, so the demo shows the active and planned alerts it had then; its
/// `TimeStamp`, the feed's own time of making, is shifted with them and, as a live feed stamps
/// each document it serves, moves on to the moment of each fetch: the demo never reads as a
/// feed made long ago (`DataFreshness`), however long it runs.
///
/// Threads: an immutable value; its refresher's thread fetches from it.
public struct DemoSource: Source {
    public let url: String
    private let bytes: [UInt8]
    /// The alerts, rebased, whose `TimeStamp` each fetch sets; nil for the stations.
    private let alerts: JSON?
    private let chicago: TimeZoneRules
    private let clock: DaemonClock

    /// What the demo has: alerts and stations, no lift status (so a facilities source is never
    /// made of it). Named as the caches they fill (`Feed(rawValue: cache.rawValue)`).
    public enum Feed: String, Sendable {
        case alerts, stations
    }

    /// `chicago`: the zone of the capture's wall-clock times (`CTATime.zoneIdentifier`).
    public init(_ feed: Feed, rebasedTo startup: Instant, chicago: TimeZoneRules, clock: DaemonClock) {
        (self.chicago, self.clock) = (chicago, clock)
        switch feed {
        case .alerts:
            url = "demo:alerts"
            let published = Self.embedded(stopsheet_demo_alerts)
            alerts = DemoSource.rebase(published, to: startup, chicago: chicago)
            bytes = alerts == nil ? published : []
        case .stations:
            url = "demo:stations"
            (alerts, bytes) = (nil, Self.embedded(stopsheet_demo_stops))
        }
    }

    /// One demo file's bytes, as CDemoData links them in.
    private static func embedded(_ file: (UnsafeMutablePointer<Int>) -> UnsafePointer<UInt8>?) -> [UInt8] {
        var count = 0
        let start = file(&count)
        return Array(UnsafeBufferPointer(start: start, count: count))
    }

    public func fetch(validators: CacheValidators?, stop: StopFlag) -> Result<Fetched, FetchFailure> {
        .success(.body(alerts.map { Self.stamped($0, at: clock.now(), chicago: chicago).encoded } ?? bytes, validators: CacheValidators(), httpStatus: nil))
    }

    /// The document with `CTAAlerts.TimeStamp` set to `now`, in the API's wall-clock form.
    static func stamped(_ document: JSON, at now: Instant, chicago: TimeZoneRules) -> JSON {
        guard case .object(var root) = document, case .object(var feed)? = root["CTAAlerts"] else { return document }
        feed.members = feed.members.map { $0.key == "TimeStamp" ? (key: $0.key, value: .string(chicago.wallClock(now).iso8601)) : $0 }
        root.members = root.members.map { $0.key == "CTAAlerts" ? (key: $0.key, value: .object(feed)) : $0 }
        return .object(root)
    }

    /// Shifts `EventStart`/`EventEnd` and `TimeStamp` by (start-up − the capture's `TimeStamp`),
    /// rewriting them in the CTA JSON API's own wall-clock form (`2015-02-14T14:35:00`, Chicago)
    /// so the real decoder reads them as usual. Nil when the capture has no readable `TimeStamp`.
    static func rebase(_ bytes: [UInt8], to startup: Instant, chicago: TimeZoneRules) -> JSON? {
        guard let document = try? JSONParser.parse(bytes),
              let stamp = document["CTAAlerts"]?["TimeStamp"]?.stringValue, let captured = CTATime.instant(stamp, in: chicago)
        else { return nil }
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
        return shifted(document, key: nil)
    }
}
