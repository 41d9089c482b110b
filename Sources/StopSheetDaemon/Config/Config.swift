import StopSheetCore
import ZoneInfo

/// The daemon's configuration from flags and `STOPSHEETD_*` environment variables (flags win),
/// so the unit can use `EnvironmentFile=`. Parsing is pure: argv and environment are parameters,
/// and every bad value is a one-line reason. The one exception is `--time-zone`, whose name is
/// looked up in the system's time-zone database, so that a start and `--check-config` refuse a
/// zone the daemon could not show.
///
/// Each setting is written once: its field here, named as its flag (`--max-output-bytes` is
/// `maxOutputBytes`, and so in `ServerLimits`), with its default as the field's initial value;
/// its row in `options` says how it is parsed and shows that default (`default: \.field`) in
/// `--help`. The limits structs take their defaults from `Config.defaults`; the man pages and the
/// sample config are checked against `documentedDefaults` (OptionsDocumentationIntegrationTests).
///
/// The rest is in its own files: the options table (ConfigOptions.swift), the loader that layers
/// environment, file and flags and collects their problems (ConfigLoader.swift), and `--help`
/// (ConfigUsage.swift); what a reload does with each option is ReloadEffect.swift.
///
/// Adding an option: a field with its default, then a row in `options` (flag, placeholder, help
/// without the default, `default: \.field` when it has one, and how to parse it), then its
/// `.It Fl` item in man/stopsheetd.8, its `.It Ev` in man/stopsheetd.conf.5 and its commented
/// `#STOPSHEETD_…=<default>` line in systemd/stopsheetd.conf; and, when a reload cannot apply it,
/// `reload: .atRestart(\.field)` in its row (ReloadEffect.swift).
public struct Config: Sendable, Equatable {
    public var socketPath = "/run/stopsheetd/stopsheetd.sock"
    public var alertsURL: String?
    public var stationsURL: String?
    /// Lift status (SIRI-FM, WMATA's `ElevatorIncidents`, NYCT's ENE outages); optional.
    public var facilitiesURL: String?
    /// Where each lift-status unit is, when the feed does not say: NYCT's equipments JSON or a
    /// deployer's CSV `facility_id,stop_id,pathway_id`. Read with each lift-status refresh.
    public var facilitiesInventoryURL: String?
    /// The deployer's table of the stations a lift-status feed names in its own words: CSV
    /// `station_ref,stop_id`. Read with each lift-status refresh, as the inventory is.
    public var facilitiesStationsURL: String?
    /// A deployer's station map where the agency publishes none: GTFS `stops.txt`,
    /// `pathways.txt`, `levels.txt` under the station data's ids (a zip, or a `file://`
    /// directory). Read with each stations refresh.
    public var topologyURL: String?
    /// Request headers for each URL, from a file of `Name: value` lines (RequestHeaders.swift):
    /// the path only; the file is read where its source is made, so its values never sit here.
    public var alertsHeadersFile: String?
    public var stationsHeadersFile: String?
    public var facilitiesHeadersFile: String?
    public var facilitiesInventoryHeadersFile: String?
    public var facilitiesStationsHeadersFile: String?
    public var topologyHeadersFile: String?
    public var facilitiesInterval: Double = 60
    public var facilitiesStaleAfter: Double = 300
    /// How far from a lift-status unit's position its station's nearest stop may be, in metres.
    public var facilitiesRadius = FacilityJoin.defaultRadiusMeters
    public var alertsInterval: Double = 60
    public var stationsInterval: Double = 3600
    public var alertsStaleAfter: Double = 600
    /// Least time between two fetches that `refresh` calls ask for (seconds; 0 = none).
    public var refreshSpacing: Double = 1
    /// Nil: 3 × `stationsInterval`.
    public var stationsStaleAfter: Double?
    public var httpTimeout = Double(HTTPOptions.defaultTimeoutMilliseconds) / 1000
    /// GTFS-realtime translations (BCP 47, e.g. `en`, `es`), which `route_type`s are trains, and
    /// the agency name of the "none" sentence.
    public var reading = FeedReading()
    /// `--time-zone`, read from the time-zone database when given; nil: `TimeZones.shown` chooses.
    public var timeZone: TimeZoneRules?
    public var demo = false
    /// `--now`: the clock starts at this instant instead of the real time (tests, replays).
    public var now: Instant?
    /// When systemd hears READY=1.
    public var notifyReady = NotifyReady.whenListening
    public var logLevel: LogLevel = .notice
    public var maxLineBytes = 1 << 20
    public var maxConnections = 1024
    public var maxConnectionsPerUID = 64
    public var maxBatch = 64
    public var maxDepth = 64
    public var maxOutputBytes = 256 << 10
    public var maxBufferedBytes = 32 << 20
    public var idleTimeout: Double = 0
    public var stuckTimeout: Double = 30
    public var maxSubscriptions = 16
    public var maxSubscriptionStops = 256
    public var maxSubscribedStops = 16384
    public var configFile: String?

    /// Every setting at its default.
    public static let defaults = Config()

    public enum Action: Equatable, Sendable {
        case run(Config)
        case help
        case version
    }

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    public init() {}
}

/// `--notify-ready`: what READY=1 tells systemd (and so `systemctl start` and the units ordered
/// after this one).
public enum NotifyReady: String, Sendable, CaseIterable {
    /// The socket is served; data may still be loading (`health` says `starting`).
    case whenListening = "when-listening"
    /// The socket is served and every configured source has loaded once.
    case whenLoaded = "when-loaded"
}
