import StopSheetCore
import StopSheetProtocol

/// Gathers the statuses of a `refresh` that spans several caches; the last one in answers.
final class RefreshOutcome: Sendable {
    private let expected: [CacheName]
    private let zone: TimeZoneRules
    private let clock: DaemonClock
    private let statuses = Locked<[CacheName: CacheStatus]>([:])

    init(expected: [CacheName], zone: TimeZoneRules, clock: DaemonClock) { (self.expected, self.zone, self.clock) = (expected, zone, clock) }

    /// Returns the encoded result once every expected cache has reported.
    func record(_ cache: CacheName, _ status: CacheStatus) -> PreEncoded<Answer.Refreshed>? {
        statuses.withLock { statuses -> PreEncoded<Answer.Refreshed>? in
            statuses[cache] = status
            guard statuses.count == expected.count else { return nil }
            return CacheStatus.encodedRefreshed(statuses, at: clock.now(), in: zone)
        }
    }
}
