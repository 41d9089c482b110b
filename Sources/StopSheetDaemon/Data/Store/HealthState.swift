import StopSheetProtocol

/// `health.status` (`Answer.HealthStatus`, whose words and order the protocol holds).
public typealias HealthState = Answer.HealthStatus

extension Answer.HealthStatus {
    /// The daemon's state as a pure function of its caches' statuses, written once so that
    /// `health`, `STATUS=` and `healthChanged` notifications cannot disagree: the first that
    /// holds, in declaration order.
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
