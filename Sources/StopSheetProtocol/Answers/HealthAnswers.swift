extension Answer {
    /// `health`'s result, and `healthChanged`'s `health`.
    public struct Health: AnswerObject {
        public var status: HealthStatus
        public var alerts: CacheHealth
        public var stations: CacheHealth
        /// Lift status (`--facilities-url`): `configured: false` when the daemon has none. Since
        /// protocol 2.1; a 2.0 daemon leaves it out.
        public var facilities: CacheHealth?
        public var uptimeSeconds: Int
        public var connections: Int
        public var version: String
        public var subscriptions: Nullable<SubscriptionTotals>
        /// The agencies whose stations are served, by the names their sheets give; empty until
        /// the stations load, and when nothing names one (`stops.txt` alone).
        public var agencies: [String]
        /// The zone of the answers' times; null until one is known (times are then UTC with `Z`).
        public var timeZone: Nullable<String>
        public var clock: Clock

        public enum CodingKeys: String, AnswerKey {
            case status, alerts, stations, facilities, uptimeSeconds, connections, version, subscriptions, agencies, timeZone, clock
        }

        public static let summary = "Whether the daemon can answer, and each cache's state."

        public init(status: HealthStatus, alerts: CacheHealth, stations: CacheHealth, facilities: CacheHealth?, uptimeSeconds: Int, connections: Int, version: String, subscriptions: SubscriptionTotals?, agencies: [String], timeZone: String?, clock: Clock) {
            (self.status, self.alerts, self.stations, self.facilities, self.uptimeSeconds, self.connections, self.version, self.subscriptions, self.agencies, self.timeZone, self.clock) = (status, alerts, stations, facilities, uptimeSeconds, connections, version, Nullable(subscriptions), agencies, Nullable(timeZone), clock)
        }
    }

    /// `health.status`: the first that holds, in declaration order (the daemon's rule is
    /// `HealthStatus.init(_:)` over its caches).
    public enum HealthStatus: String, AnswerWord {
        /// A cache has never loaded and its source is failing: there is nothing to serve.
        case unavailable
        /// A cache's first load is still under way and has not failed.
        case starting
        /// Everything loaded, but a source is failing: the last good data is served.
        case degraded
        /// Everything loaded and no source failing.
        case ready
    }

    /// One cache in `health` and in `refresh`'s answer; times are ISO 8601 in the daemon's zone.
    public struct CacheHealth: AnswerObject {
        public var loaded: Bool
        public var count: Int
        public var loadedAt: Nullable<String>
        public var lastAttemptAt: Nullable<String>
        public var lastError: Nullable<String>
        /// Null for a cache the daemon has no source for (`configured: false`).
        public var source: Nullable<String>
        public var consecutiveFailures: Int
        public var nextRefreshAt: Nullable<String>
        public var lastHTTPStatus: Nullable<Int>
        public var ageSeconds: Nullable<Int>
        public var stale: Bool
        public var note: Nullable<String>
        public var producedAt: Nullable<String>
        public var configured: Bool
        /// The stations and lift-status caches' only: what the last good load had to skip.
        public var notices: Notices?
        /// The lift-status cache's only, once stations and lift status have loaded: where its units are.
        public var placement: PlacementCounts?
        /// The lift-status cache's only, once stations and lift status have loaded: which rule put
        /// its units at their stations (since 2.5).
        public var joined: JoinedCounts?

        public enum CodingKeys: String, AnswerKey {
            case loaded, count, loadedAt, lastAttemptAt, lastError, source, consecutiveFailures, nextRefreshAt, lastHTTPStatus, ageSeconds, stale, note,
                 producedAt, configured, notices, placement, joined
        }

        public static let summary = "One cache's state: loaded, fresh, and how its source is doing."

        public init(loaded: Bool, count: Int, loadedAt: String?, lastAttemptAt: String?, lastError: String?, source: String?, consecutiveFailures: Int, nextRefreshAt: String?, lastHTTPStatus: Int?, ageSeconds: Int?, stale: Bool, note: String?, producedAt: String?, configured: Bool, notices: Notices?,
                    placement: PlacementCounts?, joined: JoinedCounts?) {
            (self.placement, self.joined) = (placement, joined)
            (self.loaded, self.count, self.loadedAt, self.lastAttemptAt, self.lastError, self.source, self.consecutiveFailures, self.nextRefreshAt, self.lastHTTPStatus, self.ageSeconds, self.stale, self.note, self.producedAt, self.configured, self.notices) = (loaded, count, Nullable(loadedAt), Nullable(lastAttemptAt), Nullable(lastError), Nullable(source), consecutiveFailures, Nullable(nextRefreshAt), Nullable(lastHTTPStatus), Nullable(ageSeconds), stale, Nullable(note), Nullable(producedAt), configured, notices)
        }
    }

    /// `health.stations.notices`: the rows and values a feed had to skip, all counted, the first
    /// ten given.
    public struct Notices: AnswerObject {
        public var count: Int
        public var first: [Notice]

        public enum CodingKeys: String, AnswerKey { case count, first }

        public static let summary = "The rows and values the last good load had to skip: how many, and the first ten."

        public init(count: Int, first: [Notice]) {
            (self.count, self.first) = (count, first)
        }
    }

    /// One row or value skipped: where, and why.
    public struct Notice: AnswerObject {
        public var file: String
        /// 1-based; the header is line 1.
        public var line: Int
        public var problem: String

        public enum CodingKeys: String, AnswerKey { case file, line, problem }

        public static let summary = "One row or value a feed had to skip: its file, its line and the problem."

        public init(file: String, line: Int, problem: String) {
            (self.file, self.line, self.problem) = (file, line, problem)
        }
    }

    /// `health.clock`: the daemon's clock, pinned with `--now` or the real one.
    public struct Clock: AnswerObject {
        /// The daemon's time at the answer, ISO 8601 in the daemon's zone.
        public var now: String
        /// True when `--now` set the clock at start; it then runs on at the real rate.
        public var pinned: Bool

        public enum CodingKeys: String, AnswerKey { case now, pinned }

        public static let summary = "The daemon's clock: its time now and whether --now pinned it."

        public init(now: String, pinned: Bool) {
            (self.now, self.pinned) = (now, pinned)
        }
    }

    /// `health.subscriptions`: push's totals.
    public struct SubscriptionTotals: AnswerObject {
        public var count: Int
        public var stops: Int
        public var queuedNotifications: Int
        public var queuedNotificationBytes: Int

        public enum CodingKeys: String, AnswerKey { case count, stops, queuedNotifications, queuedNotificationBytes }

        public static let summary = "Push's totals: subscriptions, subscribed stops, notifications kept unsent."

        public init(count: Int, stops: Int, queuedNotifications: Int, queuedNotificationBytes: Int) {
            (self.count, self.stops, self.queuedNotifications, self.queuedNotificationBytes) = (count, stops, queuedNotifications, queuedNotificationBytes)
        }
    }

    /// `refresh`'s result: the `health` entry of each cache refreshed.
    public struct Refreshed: AnswerObject {
        public var alerts: CacheHealth?
        public var stations: CacheHealth?
        public var facilities: CacheHealth?

        public enum CodingKeys: String, AnswerKey { case alerts, stations, facilities }

        public static let summary = "The health entries of what was refreshed."

        public init(alerts: CacheHealth?, stations: CacheHealth?, facilities: CacheHealth?) {
            (self.alerts, self.stations, self.facilities) = (alerts, stations, facilities)
        }
    }

    /// `version`'s result.
    public struct Version: AnswerObject {
        public var name: String
        public var version: String
        /// `ProtocolVersion`'s "major.minor".
        public var `protocol`: String

        public enum CodingKeys: String, AnswerKey { case name, version, `protocol` }

        public static let summary = "The daemon's name, version and protocol version."

        public init(name: String, version: String, `protocol`: String) {
            (self.name, self.version, self.`protocol`) = (name, version, `protocol`)
        }
    }
}
