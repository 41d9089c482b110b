/// An alert about accessibility that applies to a station: listed beside the accessibility
/// button's sentence, never changing it (the sentence and the tone follow CTA's station
/// accessibility field alone, as the spec says). The one place that decides which alerts are
/// advisories and which announce a return to service.
public struct AccessibilityAdvisory: Sendable, Equatable {
    public var alert: LiveAlert
    /// The alert announces a return to service ("Elevator at 69th Back in Service"): good news,
    /// not an outage.
    public var restored: Bool

    /// The advisory an alert is, nil when it is none (as classified when it went live).
    public init?(_ alert: LiveAlert) {
        guard let restored = alert.advisoryRestored else { return nil }
        self.init(alert: alert, restored: restored)
    }

    public init(alert: LiveAlert, restored: Bool) {
        self.alert = alert
        self.restored = restored
    }

    /// The advisories among a station's applying alerts, in the order given (dialog order).
    public static func advisories(among alerts: [LiveAlert]) -> [AccessibilityAdvisory] {
        alerts.compactMap(AccessibilityAdvisory.init)
    }

    /// CTA `Impact` naming elevators or accessibility as a word (`Elevator Status`,
    /// `Accessibility Status`, the real feed's `Accessiblity Note`), the app format's category
    /// `accessibility`, or GTFS-realtime's `ACCESSIBILITY_ISSUE` effect (added for exactly this);
    /// and every facility outage, however it is told (`AlertOutage`: an elevator closure in
    /// `effect_detail` or only in the headline's words).
    public static func isAdvisory(_ alert: Alert) -> Bool {
        let details = alert.details
        if let impact = details.impact, AlertWords.words(impact).contains(where: impactWords.contains) { return true }
        if details.category.map(AlertWords.words) == ["accessibility"] { return true }
        return details.effect?.uppercased() == "ACCESSIBILITY_ISSUE" || AlertOutage.isOutage(alert)
    }

    /// The headline says "back in service" or "returned to service" and not "out of service":
    /// an outage notice whose headline also names a restored unit stays an outage. The
    /// description is not read: outage texts say when the unit "will be back in service".
    public static func isRestored(_ alert: Alert) -> Bool { isRestored(headline: AlertWords.words(alert.headline)) }

    /// `isRestored` of a headline already read as words.
    static func isRestored(headline: [String]) -> Bool {
        guard !AlertWords.contains(headline, phrase: outOfService) else { return false }
        return restoredPhrases.contains { AlertWords.contains(headline, phrase: $0) }
    }

    private static let impactWords = FacilityKind.elevator.words.union(["accessibility", "accessiblity"])
    private static let restoredPhrases = [["back", "in", "service"], ["returned", "to", "service"]]
    private static let outOfService = ["out", "of", "service"]
}
