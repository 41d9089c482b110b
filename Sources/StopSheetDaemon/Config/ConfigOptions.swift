import StopSheetCore
import ZoneInfo

/// The options table: every setting's flag, placeholder, help and default as `--help` shows it,
/// its environment variable and config-file key (both follow from the flag), how its value is
/// parsed and checked, and what a reload does with it (`reload`, ReloadEffect.swift). The loader
/// (ConfigLoader.swift) applies rows; the usage text (ConfigUsage.swift) lists them. The value
/// parsers live here, beside the rows that use them.
extension Config {
    struct Option: Sendable {
        let flag: String
        let placeholder: String?
        let help: String
        /// The default as a user would write it, read from `Config.defaults`; nil when there is
        /// none or `help` says it in words.
        let defaultValue: String?
        /// Sets the value; `name` is how the user wrote the setting (flag or variable), for messages.
        let apply: @Sendable (inout Config, String, _ name: String) throws -> Void
        /// nil when SIGHUP applies it; else how it waits for a restart: what `--help`,
        /// stopsheetd(8) and the reload itself read.
        let reload: OnReload?

        init(flag: String, placeholder: String?, help: String, default field: PartialKeyPath<Config>? = nil, reload: OnReload? = nil,
             apply: @escaping @Sendable (inout Config, String, _ name: String) throws -> Void) {
            self.flag = flag
            self.placeholder = placeholder
            self.help = help
            defaultValue = field.map { Self.written(Config.defaults[keyPath: $0]) }
            self.reload = reload
            self.apply = apply
        }

        /// A value as it would be written in a flag or the config file.
        private static func written(_ value: Any) -> String {
            switch value {
            case let seconds as Double: seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
            case let level as LogLevel: level.name
            case let ready as NotifyReady: ready.rawValue
            default: "\(value)"
            }
        }

        /// The help text with its default.
        var helpWithDefault: String { help + (defaultValue.map { " (default \($0))" } ?? "") }

        var environmentName: String {
            "STOPSHEETD_" + flag.dropFirst(2).uppercased().replacingOccurrences(of: "-", with: "_")
        }
    }

    static let options: [Option] = [
        Option(flag: "--socket", placeholder: "PATH", help: "Unix socket to serve", default: \.socketPath, reload: .atRestart(\.socketPath)) { $0.socketPath = try nonEmpty($1, $2) },
        Option(flag: "--alerts-url", placeholder: "URL", help: "train alerts: http(s):// or file:// (app API, CTA alerts.aspx JSON or GTFS-realtime)") { $0.alertsURL = try sourceURL($1, $2) },
        Option(flag: "--stations-url", placeholder: "URL", help: "station metadata: http(s):// or file:// ('L' stops CSV/JSON, app stops JSON, GTFS stops.txt or feed)") { $0.stationsURL = try sourceURL($1, $2) },
        Option(flag: "--facilities-url", placeholder: "URL", help: "lift status, optional: http(s):// or file:// (SIRI-FM XML; WMATA ElevatorIncidents, NYCT ENE outages, TfL Disruptions/Lifts, DB FaSta or IDFM etat-des-ascenseurs JSON; IDFM etat-des-ascenseurs CSV)") { $0.facilitiesURL = try sourceURL($1, $2) },
        Option(flag: "--facilities-inventory-url", placeholder: "URL", help: "where each lift is when the status feed does not say: http(s):// or file:// (NYCT ENE equipments JSON or CSV facility_id,stop_id,pathway_id)") { $0.facilitiesInventoryURL = try sourceURL($1, $2) },
        Option(flag: "--facilities-stations-url", placeholder: "URL", help: "the stations a lift-status feed names by its own references (FaSta's stationnumber, IDFM's ZdcId), optional, read with each lift-status refresh: http(s):// or file:// (CSV station_ref,stop_id)") { $0.facilitiesStationsURL = try sourceURL($1, $2) },
        Option(flag: "--topology-url", placeholder: "URL", help: "a deployer's station map where the agency publishes none, optional, read with each stations refresh: GTFS stops.txt, pathways.txt and levels.txt under the station data's own station and platform ids, as a .zip over http(s):// or file://, or a directory over file://") { $0.topologyURL = try sourceURL($1, $2) },
        Option(flag: "--alerts-headers-file", placeholder: "PATH", help: "request headers for --alerts-url, 'Name: value' lines as curl -H @file reads them; owner-only (a systemd credential: %d/alerts-headers)") { $0.alertsHeadersFile = try nonEmpty($1, $2) },
        Option(flag: "--stations-headers-file", placeholder: "PATH", help: "request headers for --stations-url, as --alerts-headers-file") { $0.stationsHeadersFile = try nonEmpty($1, $2) },
        Option(flag: "--facilities-headers-file", placeholder: "PATH", help: "request headers for --facilities-url, as --alerts-headers-file") { $0.facilitiesHeadersFile = try nonEmpty($1, $2) },
        Option(flag: "--facilities-inventory-headers-file", placeholder: "PATH", help: "request headers for --facilities-inventory-url, as --alerts-headers-file") { $0.facilitiesInventoryHeadersFile = try nonEmpty($1, $2) },
        Option(flag: "--facilities-stations-headers-file", placeholder: "PATH", help: "request headers for --facilities-stations-url, as --alerts-headers-file") { $0.facilitiesStationsHeadersFile = try nonEmpty($1, $2) },
        Option(flag: "--topology-headers-file", placeholder: "PATH", help: "request headers for --topology-url, as --alerts-headers-file") { $0.topologyHeadersFile = try nonEmpty($1, $2) },
        Option(flag: "--alerts-interval", placeholder: "SECONDS", help: "alert refresh interval, at least 1", default: \.alertsInterval) { $0.alertsInterval = try seconds($1, $2, min: 1) },
        Option(flag: "--stations-interval", placeholder: "SECONDS", help: "station refresh interval, at least 1", default: \.stationsInterval) { $0.stationsInterval = try seconds($1, $2, min: 1) },
        Option(flag: "--facilities-interval", placeholder: "SECONDS", help: "lift status refresh interval, at least 1", default: \.facilitiesInterval) { $0.facilitiesInterval = try seconds($1, $2, min: 1) },
        Option(flag: "--refresh-spacing", placeholder: "SECONDS", help: "least time between two fetches that refresh calls ask for", default: \.refreshSpacing) { $0.refreshSpacing = try seconds($1, $2, min: 0) },
        Option(flag: "--alerts-stale-after", placeholder: "SECONDS", help: "alerts older than this are stale in sheets and health", default: \.alertsStaleAfter) { $0.alertsStaleAfter = try seconds($1, $2, min: 1) },
        Option(flag: "--stations-stale-after", placeholder: "SECONDS", help: "stations older than this are stale (default 3 x --stations-interval)") { $0.stationsStaleAfter = try seconds($1, $2, min: 1) },
        Option(flag: "--facilities-stale-after", placeholder: "SECONDS", help: "lift status older than this is stale, and every lift counts as unknown", default: \.facilitiesStaleAfter) { $0.facilitiesStaleAfter = try seconds($1, $2, min: 1) },
        Option(flag: "--facilities-radius", placeholder: "METRES", help: "a lift with a position that nothing else places is at the station whose nearest stop is within this distance, 1 to 5000", default: \.facilitiesRadius) { $0.facilitiesRadius = try metres($1, $2) },
        Option(flag: "--http-timeout", placeholder: "SECONDS", help: "total time allowed for one upstream fetch", default: \.httpTimeout) { $0.httpTimeout = try seconds($1, $2, min: 0.001) },
        Option(flag: "--language", placeholder: "TAG", help: "GTFS-realtime translation to pick, then the untagged one, then the first", default: \.reading.language) { $0.reading.language = try nonEmpty($1, $2) },
        Option(flag: "--train-route-types", placeholder: "LIST", help: "GTFS route_types that are trains, e.g. 0-2,12 (default \(TrainRouteTypes.rail))") {
            config, value, name in
            guard let types = TrainRouteTypes(parsing: value) else {
                throw Failure(description: "\(name): '\(value)' is not a list of route_types and ranges such as 0,1,2,100-199")
            }
            config.reading.trainRouteTypes = types
        },
        Option(flag: "--agency-name", placeholder: "NAME", help: "agency the 'none' sentence names (default: the feed's agency_name; CTA for CTA data)") {
            $0.reading.agencyName = try nonEmpty($1, $2)
        },
        Option(flag: "--time-zone", placeholder: "ZONE", help: "zone of every time shown, e.g. America/New_York (default: the zone the data names, the feed's agency_timezone or \(CTATime.zoneIdentifier) for CTA's formats; until then UTC, written with Z)") {
            do { $0.timeZone = try TimeZoneDatabase.rules(try nonEmpty($1, $2)) } catch let failure as TimeZoneDatabase.Failure { throw Failure(description: "\($2): \(failure)") }
        },
        Option(flag: "--config", placeholder: "PATH", help: "environment file of STOPSHEETD_* settings, re-read on SIGHUP; -PATH: optional") {
            let path = try nonEmpty($1, $2)
            $0.configFile = path.hasPrefix("-") ? String(path.dropFirst()) : path
        },
        Option(flag: "--now", placeholder: "TIME", help: "start the clock at TIME (ISO 8601 with an offset or Z), for tests and replays; it runs on at the real rate (default: the real time)", reload: .atRestart(\.now)) {
            $0.now = try instant($1, $2)
        },
        Option(flag: "--notify-ready", placeholder: "WHEN",
               help: "when systemd hears READY=1: when-listening (serving, maybe without data) or when-loaded (every source loaded once)",
               default: \.notifyReady, reload: .atRestart(\.notifyReady)) { config, value, name in
            guard let when = NotifyReady(rawValue: value) else {
                throw Failure(description: "\(name): '\(value)' is not one of \(NotifyReady.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            config.notifyReady = when
        },
        Option(flag: "--demo", placeholder: nil, help: "serve the embedded real CTA snapshot for any source not given") { $0.demo = try flag($1, $2) },
        Option(flag: "--log-level", placeholder: "LEVEL", help: "critical, error, warning, notice, info or debug", default: \.logLevel) { config, value, name in
            guard let level = LogLevel(name: value) else { throw Failure(description: "\(name): '\(value)' is not one of \(LogLevel.allCases.map(\.name).joined(separator: ", "))") }
            config.logLevel = level
        },
        Option(flag: "--max-line-bytes", placeholder: "BYTES", help: "longest request line", default: \.maxLineBytes, reload: .atRestart(\.maxLineBytes)) { $0.maxLineBytes = try count($1, $2, min: 64) },
        Option(flag: "--max-connections", placeholder: "N", help: "concurrent clients; the next gets 'server busy'", default: \.maxConnections, reload: .atRestart(\.maxConnections)) { $0.maxConnections = try count($1, $2, min: 1) },
        Option(flag: "--max-connections-per-uid", placeholder: "N", help: "concurrent clients of one uid other than root and the daemon's", default: \.maxConnectionsPerUID, reload: .atRestart(\.maxConnectionsPerUID)) { $0.maxConnectionsPerUID = try count($1, $2, min: 1) },
        Option(flag: "--max-buffered-bytes", placeholder: "BYTES", help: "unsent answers and unanswered requests of all clients together", default: \.maxBufferedBytes, reload: .atRestart(\.maxBufferedBytes)) { $0.maxBufferedBytes = try count($1, $2, min: 65536) },
        Option(flag: "--max-batch", placeholder: "N", help: "requests in one batch", default: \.maxBatch, reload: .atRestart(\.maxBatch)) { $0.maxBatch = try count($1, $2, min: 1) },
        Option(flag: "--max-depth", placeholder: "N", help: "JSON nesting depth of a request", default: \.maxDepth, reload: .atRestart(\.maxDepth)) { $0.maxDepth = try count($1, $2, min: 4) },
        Option(flag: "--max-output-bytes", placeholder: "BYTES", help: "unsent answers per client before it stops being read", default: \.maxOutputBytes, reload: .atRestart(\.maxOutputBytes)) { $0.maxOutputBytes = try count($1, $2, min: 4096) },
        Option(flag: "--idle-timeout", placeholder: "SECONDS", help: "close clients idle this long; 0 = never", default: \.idleTimeout, reload: .atRestart(\.idleTimeout)) { $0.idleTimeout = try seconds($1, $2, min: 0) },
        Option(flag: "--stuck-timeout", placeholder: "SECONDS", help: "close clients that read nothing of their answers this long", default: \.stuckTimeout, reload: .atRestart(\.stuckTimeout)) { $0.stuckTimeout = try seconds($1, $2, min: 0.1) },
        Option(flag: "--max-subscriptions", placeholder: "N", help: "subscriptions per connection", default: \.maxSubscriptions, reload: .atRestart(\.maxSubscriptions)) { $0.maxSubscriptions = try count($1, $2, min: 1) },
        Option(flag: "--max-subscription-stops", placeholder: "N", help: "stops in one subscription", default: \.maxSubscriptionStops, reload: .atRestart(\.maxSubscriptionStops)) { $0.maxSubscriptionStops = try count($1, $2, min: 1) },
        Option(flag: "--max-subscribed-stops", placeholder: "N", help: "subscribed stops over all connections", default: \.maxSubscribedStops, reload: .atRestart(\.maxSubscribedStops)) { $0.maxSubscribedStops = try count($1, $2, min: 1) },
    ]

    /// Each option's flag, variable and default (nil: none, or said in words), for the tests
    /// that hold the man pages and the sample config to them.
    static var documentedDefaults: [(flag: String, environmentName: String, value: String?)] {
        options.map { ($0.flag, $0.environmentName, $0.defaultValue) }
    }

    private static func nonEmpty(_ value: String, _ flag: String) throws(Failure) -> String {
        guard !value.isEmpty else { throw Failure(description: "\(flag) must not be empty") }
        return value
    }

    private static func sourceURL(_ value: String, _ flag: String) throws(Failure) -> String {
        let url = try nonEmpty(value, flag)
        do { try checkSourceURL(url) } catch { throw Failure(description: "\(flag): \(error.message)") }
        return url
    }

    /// An exact instant: ISO 8601 with its offset, since a time without one names no instant.
    private static func instant(_ value: String, _ flag: String) throws(Failure) -> Instant {
        guard let (wall, offset) = ISO8601Time.parse(value), let offset else {
            throw Failure(description: "\(flag): '\(value)' is not an ISO 8601 time with an offset or Z, such as 2015-02-14T14:35:00-06:00")
        }
        return Instant(secondsSince1970: wall.secondsSince1970 - Int64(offset))
    }

    private static func seconds(_ value: String, _ flag: String, min: Double) throws(Failure) -> Double {
        guard let number = Double(value), number.isFinite, number >= min, number <= 86_400 * 7 else {
            throw Failure(description: "\(flag): '\(value)' is not a number of seconds between \(min == min.rounded() ? String(Int(min)) : String(min)) and 604800")
        }
        return number
    }

    private static func count(_ value: String, _ flag: String, min: Int) throws(Failure) -> Int {
        guard let number = Int(value), number >= min, number <= 1 << 30 else {
            throw Failure(description: "\(flag): '\(value)' is not a whole number between \(min) and 1073741824")
        }
        return number
    }

    /// The position join's reach: far enough for a station's spread, never a town's.
    private static func metres(_ value: String, _ flag: String) throws(Failure) -> Int {
        guard let number = Int(value), (1...5_000).contains(number) else {
            throw Failure(description: "\(flag): '\(value)' is not a whole number of metres between 1 and 5000")
        }
        return number
    }

    private static func flag(_ value: String, _ flag: String) throws(Failure) -> Bool {
        switch value.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off", "": return false
        default: throw Failure(description: "\(flag): '\(value)' is not one of 1, true, yes, on (or 0, false, no, off, empty), in any case")
        }
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
