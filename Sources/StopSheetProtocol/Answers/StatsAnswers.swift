extension Answer {
    /// `stats`' result. `requests` and `errors` are keyed by method name and error code (with
    /// `unknown` and `other`), a set the daemon fixes.
    public struct Stats: AnswerObject {
        public var since: Nullable<String>
        public var requests: [String: Int]
        public var errors: [String: Int]
        public var connections: ConnectionCounts
        public var refreshes: RefreshCounts
        public var bytes: ByteCounts
        public var notificationsSent: Int

        public enum CodingKeys: String, AnswerKey { case since, requests, errors, connections, refreshes, bytes, notificationsSent }

        public static let summary = "What the daemon has counted since it started."
        /// `requests`' entry for every name that is not a method.
        public static let unknownMethod = "unknown"
        /// `errors`' entry for every code that is not one of `ErrorCode`.
        public static let otherError = "other"

        public init(since: String?, requests: [String: Int], errors: [String: Int], connections: ConnectionCounts, refreshes: RefreshCounts, bytes: ByteCounts,
                    notificationsSent: Int) {
            (self.since, self.requests, self.errors, self.connections) = (Nullable(since), requests, errors, connections)
            (self.refreshes, self.bytes, self.notificationsSent) = (refreshes, bytes, notificationsSent)
        }
    }

    public struct ConnectionCounts: AnswerObject {
        public var open: Int
        public var accepted: Int
        public var refused: RefusedCounts
        public var closed: ClosedCounts

        public enum CodingKeys: String, AnswerKey { case open, accepted, refused, closed }

        public static let summary = "Connections open now, accepted, refused and closed since start."

        public init(open: Int, accepted: Int, refused: RefusedCounts, closed: ClosedCounts) {
            (self.open, self.accepted, self.refused, self.closed) = (open, accepted, refused, closed)
        }
    }

    public struct RefusedCounts: AnswerObject {
        public var busy: Int

        public enum CodingKeys: String, AnswerKey { case busy }

        public static let summary = "Connections turned away, by why."

        public init(busy: Int) {
            self.busy = busy
        }
    }

    public struct ClosedCounts: AnswerObject {
        public var finished: Int
        public var idle: Int
        public var stuck: Int
        public var vanished: Int

        public enum CodingKeys: String, AnswerKey { case finished, idle, stuck, vanished }

        public static let summary = "Connections closed, by why."

        public init(finished: Int, idle: Int, stuck: Int, vanished: Int) {
            (self.finished, self.idle, self.stuck, self.vanished) = (finished, idle, stuck, vanished)
        }
    }

    public struct RefreshCounts: AnswerObject {
        public var alerts: CacheRefreshes
        public var stations: CacheRefreshes
        /// Since protocol 2.1.
        public var facilities: CacheRefreshes?

        public enum CodingKeys: String, AnswerKey { case alerts, stations, facilities }

        public static let summary = "Refresh rounds per cache."

        public init(alerts: CacheRefreshes, stations: CacheRefreshes, facilities: CacheRefreshes?) {
            (self.alerts, self.stations, self.facilities) = (alerts, stations, facilities)
        }
    }

    public struct CacheRefreshes: AnswerObject {
        /// Null for a cache the daemon has no source for.
        public var source: Nullable<String>
        public var ok: Int
        public var failed: Int

        public enum CodingKeys: String, AnswerKey { case source, ok, failed }

        public static let summary = "One cache's refresh rounds: its source, good and failed rounds."

        public init(source: String?, ok: Int, failed: Int) {
            (self.source, self.ok, self.failed) = (Nullable(source), ok, failed)
        }
    }

    public struct ByteCounts: AnswerObject {
        public var `in`: Int
        public var out: Int

        public enum CodingKeys: String, AnswerKey { case `in`, out }

        public static let summary = "Bytes read from clients and answered to them."

        public init(`in`: Int, out: Int) {
            (self.`in`, self.out) = (`in`, out)
        }
    }
}
