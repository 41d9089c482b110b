import StopSheetCore

/// The embedded real CTA snapshot (alerts of 2015-02-14 and the 2021 'L' stops), served through
/// the same decoders as live data. Alert times are shifted so the capture's moment becomes the
/// daemon's start-up, so the demo shows the active and planned alerts it had then.
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

    public func fetch(validators: CacheValidators?) -> Result<Fetched, FetchFailure> {
        .success(.body(bytes, validators: CacheValidators(), httpStatus: nil))
    }

    static func rebase(_ bytes: [UInt8], to startup: Instant) -> [UInt8] {
        bytes  // TODO after decoders land
    }
}
