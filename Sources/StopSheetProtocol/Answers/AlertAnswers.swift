extension Answer {
    /// A live train alert, in a sheet's `alerts` and in `alerts`' answer. The details an upstream
    /// does not give are `null`: one shape for every alert, whatever its format (CTA: impact,
    /// severity, major, url; the app format: category; GTFS-realtime: cause, effect,
    /// severityLevel, url).
    public struct Alert: AnswerObject {
        public var id: String
        public var kind: AlertKind
        public var headline: String
        public var description: String
        public var start: Nullable<String>
        public var end: Nullable<String>
        public var scopes: [Scope]
        public var impact: Nullable<String>
        public var severity: Nullable<Int>
        public var major: Nullable<Bool>
        public var url: Nullable<String>
        public var category: Nullable<String>
        public var cause: Nullable<String>
        public var effect: Nullable<String>
        public var severityLevel: Nullable<String>

        public enum CodingKeys: String, AnswerKey {
            case id, kind, headline, description, start, end, scopes, impact, severity, major, url, category, cause, effect, severityLevel
        }

        public static let summary = "A live train alert; start and end are ISO 8601 in the daemon's zone."

        public init(id: String, kind: AlertKind, headline: String, description: String, start: String?, end: String?, scopes: [Scope], impact: String?, severity: Int?, major: Bool?, url: String?, category: String?, cause: String?, effect: String?, severityLevel: String?) {
            (self.id, self.kind, self.headline, self.description, self.start, self.end, self.scopes, self.impact, self.severity, self.major, self.url, self.category, self.cause, self.effect, self.severityLevel) = (id, kind, headline, description, Nullable(start), Nullable(end), scopes, Nullable(impact), Nullable(severity), Nullable(major), Nullable(url), Nullable(category), Nullable(cause), Nullable(effect), Nullable(severityLevel))
        }
    }

    /// What an alert applies to: `id` for a route, station or agency, `routeType` for a route type.
    public struct Scope: AnswerObject {
        public var type: ScopeType
        public var id: String?
        public var routeType: Int?

        public enum CodingKeys: String, AnswerKey { case type, id, routeType }

        public static let summary = "What an alert applies to."

        public init(type: ScopeType, id: String?, routeType: Int?) {
            (self.type, self.id, self.routeType) = (type, id, routeType)
        }
    }

    public enum ScopeType: String, AnswerWord {
        case systemwide, route, station, routeType, agency
    }

    /// An applying alert about accessibility, beside the button's sentence.
    public struct Advisory: AnswerObject {
        public var alertId: String
        public var kind: AlertKind
        public var headline: String
        public var description: String
        public var start: Nullable<String>
        public var end: Nullable<String>
        public var restored: Bool

        public enum CodingKeys: String, AnswerKey { case alertId, kind, headline, description, start, end, restored }

        public static let summary = "An accessibility advisory: an elevator outage or a return to service."

        public init(alertId: String, kind: AlertKind, headline: String, description: String, start: String?, end: String?, restored: Bool) {
            (self.alertId, self.kind, self.headline, self.description, self.start, self.end, self.restored) = (alertId, kind, headline, description, Nullable(start), Nullable(end), restored)
        }
    }

    /// `alerts`' result: every live alert, or those applying to `stationId`.
    public struct Alerts: AnswerObject {
        public var stationId: String?
        public var count: Int
        public var alerts: [Alert]

        public enum CodingKeys: String, AnswerKey { case stationId, count, alerts }

        public static let summary = "Live train alerts: all, or those applying to a station in dialog order."

        public init(stationId: String?, count: Int, alerts: [Alert]) {
            (self.stationId, self.count, self.alerts) = (stationId, count, alerts)
        }
    }
}
