import StopSheetCore

/// What makes one cache different from the other for its refresher: how a fetched body is
/// decoded for the store, and how the log names what was installed. The refresher
/// holds one of these and knows no cache by name. Every fetched body is decoded here first, the
/// lift inventory's too: sources return bytes. A lift-status body is read once more, in the
/// store, when the zone its wall-clock times are read in changes (`Store`, `FacilitiesBody`).
///
/// A value: built once, read by the refresher's thread only.
public struct CacheLoader: Sendable {
    /// A round's bytes and what reading them needs.
    struct Input {
        var body: [UInt8]
        /// What the companion URL brought: the inventory (lift status with
        /// `--facilities-inventory-url`), the map (stations with `--topology-url`).
        var companion: CompanionFetch?
        /// What lift status's station table URL brought (`--facilities-stations-url`).
        var stationTable: CompanionFetch? = nil
        var source: any Source
        /// How the configuration says to read bodies; CTA's wall-clock times are read in
        /// `zones`' `chicago`, a lift-status feed's in `local`, the zone the answers show.
        var reading: FeedReading
        var zones: TimeZones
        var local: TimeZoneRules
        /// The last good lift-status load: its inventory stands when the round brings none.
        var previous: FacilitiesLoad?
        /// The last good stations load: its deployer's map stands when the round brings none.
        var previousStations: StationDirectory?
    }

    public let cache: CacheName
    /// What the log line counts: "train alerts", "stations".
    let noun: String
    /// The journal field carrying the count.
    let countField: String
    /// Decodes a round's bytes into what the store installs (`Store.commit`). Throws when the
    /// body is not data for this cache; the store then keeps what it had.
    let decode: @Sendable (Input) throws -> CacheContent

    public init(_ cache: CacheName) {
        switch cache {
        case .alerts:
            self.init(cache: cache, noun: "train alerts", countField: "ALERT_COUNT") { input in
                .alerts(try AlertsDecoder.decodeFeed(input.body, reading: input.reading, chicago: input.zones.chicago))
            }
        case .stations:
            self.init(cache: cache, noun: "stations", countField: "STATION_COUNT") { input in
                let directory = try StationsLoad.directory(input)
                // An empty station list is an upstream fault, not news that the 'L' closed.
                guard directory.count > 0 else { throw FetchFailure("no stations in the body") }
                return .stations(directory)
            }
        case .facilities:
            self.init(cache: cache, noun: "lift statuses", countField: "FACILITY_COUNT") { input in
                .facilities(try FacilitiesLoad(input))
            }
        }
    }

    init(cache: CacheName, noun: String, countField: String, decode: @escaping @Sendable (Input) throws -> CacheContent) {
        self.cache = cache
        self.noun = noun
        self.countField = countField
        self.decode = decode
    }
}
