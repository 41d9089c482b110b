/// One GTFS-realtime `active_period`: a start and an end, either of them open.
public struct ActivePeriod: Hashable, Sendable {
    public var start: Instant?
    public var end: Instant?

    public init(start: Instant?, end: Instant?) {
        self.start = start
        self.end = end
    }

    public func contains(_ now: Instant) -> Bool {
        (start.map { $0 <= now } ?? true) && (end.map { now < $0 } ?? true)
    }
}
