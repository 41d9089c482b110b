import StopSheetCore

/// What makes one cache different from the other for its refresher: how a fetched body is
/// decoded and installed in the store, and how the log names what was installed. The refresher
/// holds one of these and knows no cache by name.
///
/// A value: built once, read by the refresher's thread only.
public struct CacheLoader: Sendable {
    public let cache: CacheName
    /// What the log line counts: "train alerts", "stations".
    let noun: String
    /// The journal field carrying the count.
    let countField: String
    /// Decodes `body` fetched from `source`, installs it in the store as of `now`, returns how many
    /// entries it installed. `reading` is how the configuration says to read bodies. Throws when the body is
    /// not data for this cache; the store then keeps what it had.
    let install: @Sendable (_ body: [UInt8], _ source: any Source, _ reading: FeedReading, _ now: Instant) throws -> Int

    public init(_ cache: CacheName, into store: Store) {
        switch cache {
        case .alerts:
            self.init(cache: cache, noun: "train alerts", countField: "ALERT_COUNT") { body, _, reading, now in
                store.install(alerts: try AlertsDecoder.decode(body, reading: reading, chicago: store.zones.chicago), at: now)
                return store.snapshot.liveAlerts.count
            }
        case .stations:
            self.init(cache: cache, noun: "stations", countField: "STATION_COUNT") { body, source, reading, now in
                let directory = try StationsBody.directory(body, source: source, reading: reading)
                // An empty station list is an upstream fault, not news that the 'L' closed.
                guard directory.count > 0 else { throw FetchFailure("no stations in the body") }
                store.install(stations: directory, at: now)
                return directory.count
            }
        }
    }

    init(cache: CacheName, noun: String, countField: String, install: @escaping @Sendable ([UInt8], any Source, FeedReading, Instant) throws -> Int) {
        self.cache = cache
        self.noun = noun
        self.countField = countField
        self.install = install
    }
}
