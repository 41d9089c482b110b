/// A train service alert as decoded from an upstream, before the clock is applied.
public struct Alert: Hashable, Sendable {
    /// How the alert's kind is known: the app API states it; the CTA API leaves it to the clock;
    /// GTFS-realtime gives periods (then `start` is the earliest start, `end` the latest end).
    public enum KindSource: Hashable, Sendable {
        case stated(AlertKind)
        case fromTime
        /// Active inside a period; planned while a period is still to come (before the first, or
        /// between two); not live once all have passed (`end`).
        case periods([ActivePeriod])
    }

    public var id: String
    public var kindSource: KindSource
    public var headline: String
    public var description: String
    public var start: Instant?
    public var end: Instant?
    public var scopes: [AlertScope]
    public var details: AlertDetails

    public init(id: String, kindSource: KindSource, headline: String, description: String, start: Instant? = nil, end: Instant? = nil,
                scopes: [AlertScope], details: AlertDetails = AlertDetails()) {
        self.id = id
        self.kindSource = kindSource
        self.headline = headline
        self.description = description
        self.start = start
        self.end = end
        self.scopes = scopes
        self.details = details
    }

    /// The alert's kind at `now`, or nil when it is not live (its end has passed).
    /// CTA alerts: `start > now` → planned; `start ≤ now < end` (or no end) → active.
    public func kind(at now: Instant) -> AlertKind? {
        if let end, end <= now { return nil }
        switch kindSource {
        case .stated(let kind): return kind
        case .fromTime:
            if let start, start > now { return .planned }
            return .active
        case .periods(let periods):
            return periods.contains { $0.contains(now) } ? .active : .planned
        }
    }

    /// The next moment after `now` at which `kind(at:)` changes, if any.
    public func nextChange(after now: Instant) -> Instant? {
        var candidates: [Instant] = []
        if let end, end > now { candidates.append(end) }
        if case .fromTime = kindSource, let start, start > now { candidates.append(start) }
        if case .periods(let periods) = kindSource {
            for period in periods {
                for boundary in [period.start, period.end] { if let boundary, boundary > now { candidates.append(boundary) } }
            }
        }
        return candidates.min()
    }
}

/// An alert with its kind fixed at a moment: what a snapshot serves. Whether it is an
/// accessibility advisory is decided here too, once per alert and snapshot, rather than for each
/// sheet it appears on (`AccessibilityAdvisory` holds the rule).
public struct LiveAlert: Hashable, Sendable {
    public let alert: Alert
    public let kind: AlertKind
    /// Nil when the alert is no accessibility advisory; else whether it announces a return to service.
    public let advisoryRestored: Bool?

    public init(alert: Alert, kind: AlertKind) {
        self.alert = alert
        self.kind = kind
        advisoryRestored = AccessibilityAdvisory.isAdvisory(alert) ? AccessibilityAdvisory.isRestored(alert) : nil
    }
}
