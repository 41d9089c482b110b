/// How fresh one cache's data is at a moment: what every train sheet's `data` member and
/// `health` say. A value computed from the last good load, `now` and the stale-after limit;
/// the core never reads the clock.
public struct DataFreshness: Sendable, Equatable {
    /// The cache has had a good load.
    public var loaded: Bool
    /// Whole seconds since the last good load; nil when not loaded.
    public var ageSeconds: Int64?
    /// The last good load is older than the limit. False when not loaded: nothing is there to
    /// be stale, and `loaded` says so.
    public var stale: Bool
    /// The daemon has a source for this data at all. False: it never loads, and `loaded: false`
    /// means "none is coming", not "not yet".
    public var configured: Bool

    public init(lastGoodLoad: Instant?, now: Instant, staleAfterSeconds: Int64, configured: Bool = true) {
        self.configured = configured
        loaded = lastGoodLoad != nil
        // A clock stepped back reads as age 0, not as a negative age.
        ageSeconds = lastGoodLoad.map { max(0, now.seconds(since: $0)) }
        stale = (ageSeconds ?? 0) > staleAfterSeconds
    }

    /// What makes two sheets differ over time: `loaded` and `stale`, never the age alone (it
    /// moves every second).
    public func sameState(as other: DataFreshness) -> Bool { loaded == other.loaded && stale == other.stale && configured == other.configured }
}
