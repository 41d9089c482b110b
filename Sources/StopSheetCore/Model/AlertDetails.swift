/// What an upstream says about an alert beyond its text, its reach and its times, kept as the
/// upstream gives it: for clients, and for the accessibility-advisory rule. Every field is
/// optional because every format leaves most of them out.
///
/// One type for all formats, so that a decoder for a new format fills the same fields instead of
/// adding its own beside them.
public struct AlertDetails: Hashable, Sendable {
    /// CTA `Impact` (e.g. `Elevator Status`, `Planned Work`, the real feed's `Accessiblity Note`).
    public var impact: String?
    /// CTA `SeverityScore`.
    public var severity: Int?
    /// CTA `MajorAlert`.
    public var major: Bool?
    /// CTA `AlertURL`; GTFS-realtime `url`.
    public var url: String?
    /// The app format's `category` (e.g. `accessibility`).
    public var category: String?
    /// GTFS-realtime `cause`, `effect` and `severity_level`, as the reference's enum names.
    public var cause: String?
    public var effect: String?
    public var severityLevel: String?
    /// GTFS-realtime `effect_detail` (experimental, a translated text: `ELEVATOR_CLOSURE`).
    public var effectDetail: String?

    public init(impact: String? = nil, severity: Int? = nil, major: Bool? = nil, url: String? = nil, category: String? = nil,
                cause: String? = nil, effect: String? = nil, severityLevel: String? = nil, effectDetail: String? = nil) {
        self.impact = impact
        self.severity = severity
        self.major = major
        self.url = url
        self.category = category
        self.cause = cause
        self.effect = effect
        self.severityLevel = severityLevel
        self.effectDetail = effectDetail
    }
}
