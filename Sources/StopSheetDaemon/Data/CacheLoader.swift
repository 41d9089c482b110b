import StopSheetCore

/// What makes one cache different from the other for its refresher: how a fetched body is
/// decoded for the store, and how the log names what was installed. The refresher
/// holds one of these and knows no cache by name.
///
/// A value: built once, read by the refresher's thread only.
public struct CacheLoader: Sendable {
    public let cache: CacheName
    /// What the log line counts: "train alerts", "stations".
    let noun: String
    /// The journal field carrying the count.
    let countField: String
    /// Decodes `body` fetched from `source` into what the store installs (`Store.commit`).
    /// `reading` is how the configuration says to read bodies; CTA's wall-clock times are read in
    /// `zones`' `chicago`, a lift-status feed's in `local`, the zone the answers show. Throws when
    /// the body is not data for this cache; the store then keeps what it had.
    let decode: @Sendable (_ body: [UInt8], _ source: any Source, _ reading: FeedReading, _ zones: TimeZones, _ local: TimeZoneRules) throws -> CacheContent

    public init(_ cache: CacheName) {
        switch cache {
        case .alerts:
            self.init(cache: cache, noun: "train alerts", countField: "ALERT_COUNT") { body, _, reading, zones, _ in
                .alerts(try AlertsDecoder.decodeFeed(body, reading: reading, chicago: zones.chicago))
            }
        case .stations:
            self.init(cache: cache, noun: "stations", countField: "STATION_COUNT") { body, source, reading, _, _ in
                let directory = try StationsBody.directory(body, source: source, reading: reading)
                // An empty station list is an upstream fault, not news that the 'L' closed.
                guard directory.count > 0 else { throw FetchFailure("no stations in the body") }
                return .stations(directory)
            }
        case .facilities:
            self.init(cache: cache, noun: "lift statuses", countField: "FACILITY_COUNT") { body, source, _, _, local in
                let feed = try FacilitiesBody.decode(body, local: local)
                let inventory = (source as? FacilitiesSource)?.inventory
                return .facilities(FacilitiesLoad(feed: feed, inventory: inventory?.inventory ?? .empty, inventoryNotices: inventory?.notices ?? FeedNotices(),
                                                  body: body, local: local))
            }
        }
    }

    init(cache: CacheName, noun: String, countField: String,
         decode: @escaping @Sendable ([UInt8], any Source, FeedReading, TimeZones, TimeZoneRules) throws -> CacheContent) {
        self.cache = cache
        self.noun = noun
        self.countField = countField
        self.decode = decode
    }
}
