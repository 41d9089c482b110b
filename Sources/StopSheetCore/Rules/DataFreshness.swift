/// How fresh one cache's data is at a moment: what every train sheet's `data` member and
/// `health` say. A value computed from the last good load, the feed's own time of making, `now`
/// and the stale-after limit; the core never reads the clock.
public struct DataFreshness: Sendable, Equatable {
    /// The cache has had a good load.
    public var loaded: Bool
    /// Whole seconds since the last good load; nil when not loaded.
    public var ageSeconds: Int64?
    /// When the feed says it was made (`DecodedAlerts.producedAt`); nil when it does not say,
    /// or when nothing is loaded.
    public var producedAt: Instant?
    /// The last good load is older than the limit, or the feed says it was made longer ago than
    /// that: a feed fetched a second ago may hold data from years back. False when not loaded:
    /// nothing is there to be stale, and `loaded` says so.
    public var stale: Bool
    /// The daemon has a source for this data at all. False: it never loads, and `loaded: false`
    /// means "none is coming", not "not yet".
    public var configured: Bool

    public init(lastGoodLoad: Instant?, producedAt: Instant? = nil, now: Instant, staleAfterSeconds: Int64, configured: Bool = true) {
        self.configured = configured
        loaded = lastGoodLoad != nil
        // A clock stepped back reads as age 0, not as a negative age.
        ageSeconds = lastGoodLoad.map { max(0, now.seconds(since: $0)) }
        self.producedAt = loaded ? producedAt : nil
        stale = (ageSeconds ?? 0) > staleAfterSeconds || Self.madeTooLongAgo(self.producedAt, now: now, staleAfterSeconds: staleAfterSeconds)
    }

    /// The feed says it was made over the limit before `now` (what `health` then explains). A
    /// time of making ahead of `now` (a clock ahead of ours) is not stale.
    public static func madeTooLongAgo(_ producedAt: Instant?, now: Instant, staleAfterSeconds: Int64) -> Bool {
        producedAt.map { now.seconds(since: $0) > staleAfterSeconds } ?? false
    }

    /// What makes two sheets differ over time: `loaded` and `stale`, never the age alone (it
    /// moves every second).
    public func sameState(as other: DataFreshness) -> Bool { loaded == other.loaded && stale == other.stale && configured == other.configured }
}
