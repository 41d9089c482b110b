/// `health.status`: the daemon's state as a pure function of its caches' statuses, written once
/// so that `health`, `STATUS=` and `healthChanged` notifications cannot disagree.
public enum HealthState: String, Sendable, CaseIterable {
    /// A cache has never loaded and its source is failing: there is nothing to serve.
    case unavailable
    /// A cache's first load is still under way and has not failed.
    case starting
    /// Everything loaded, but a source is failing: the last good data is served.
    case degraded
    /// Everything loaded and no source failing.
    case ready

    /// The first that holds, in declaration order.
    public init(_ statuses: [CacheStatus]) {
        if statuses.contains(where: \.failingWithNoData) {
            self = .unavailable
        } else if !statuses.allSatisfy(\.loaded) {
            self = .starting
        } else if statuses.contains(where: { $0.consecutiveFailures > 0 }) {
            self = .degraded
        } else {
            self = .ready
        }
    }
}
