/// An *outage*: an alert that says a station's elevator, escalator or other access facility is
/// out (a lift-status feed's element is a *unit*, `FacilityUnit`). The one place that decides
/// which alerts are outages, of what, and which units they name (docs/stop-sheet.md §2.4);
/// where they are on the pathways is `FacilityPlacement`'s.
///
/// An alert is an outage when it is not a return to service (`AccessibilityAdvisory.isRestored`)
/// and any of these holds:
/// - GTFS-realtime effect `ACCESSIBILITY_ISSUE`;
/// - GTFS-realtime `effect_detail` `ELEVATOR_CLOSURE` or `ESCALATOR_CLOSURE`;
/// - CTA's `Elevator Status` impact;
/// - the headline names elevator(s) or escalator(s) and says unavailable, out of service, closed
///   or not in service (an agency marking its elevator outages `OTHER_EFFECT` is still heard).
///
/// Whether it is live and active is the caller's (`Alert.kind(at:)`); where it applies is
/// `AlertMatching`'s.
public struct AlertOutage: Hashable, Sendable {
    public var alertID: String
    /// `elevator` or `escalator` by the headline's words (then `effect_detail`, then the CTA
    /// impact); both named → `elevator`, the one that matters for step-free access.
    public var facility: FacilityKind
    /// The numbers the headline gives as "Elevator N", in order: matched against a pathway's
    /// `facility_id`, `pathway_code` and `signposted_as`.
    public var elevatorNumbers: [String]
    /// The stop ids the alert's informed entities name: a generic node or boarding area at the
    /// end of an elevator pathway places the outage there.
    public var namedStops: [String]
    /// The words of the headline and of the description (`AlertWords`), each text apart so no
    /// phrase runs from one into the other: how CTA names an elevator in prose ("The Loop-bound
    /// platform elevator at …"), which `PlatformPlacement` reads at a station without a map and
    /// `Pathway.phrasesNamed(in:)` on a deployer's map.
    public var prose: [[String]]

    /// The outage an alert is, nil when it is none.
    public init?(_ alert: Alert) {
        let headline = AlertWords.words(alert.headline)
        guard let facility = Self.facility(of: alert, headline: headline) else { return nil }
        alertID = alert.id
        self.facility = facility
        elevatorNumbers = zip(headline, headline.dropFirst()).compactMap { word, next in
            word == "elevator" && next.allSatisfy(\.isNumber) ? next : nil
        }
        prose = [headline, AlertWords.words(alert.description)]
        namedStops = alert.scopes.compactMap { scope in
            if case .station(let id) = scope { return id }
            return nil
        }
    }

    /// Whether an alert is an outage by its text or `effect_detail` alone: such alerts are
    /// accessibility advisories too (`AccessibilityAdvisory.isAdvisory`). Decided without the
    /// outage's other members: every live alert is asked once per snapshot, and its description's
    /// words are the dearest of them.
    public static func isOutage(_ alert: Alert) -> Bool { facility(of: alert, headline: AlertWords.words(alert.headline)) != nil }

    /// The facility an alert's outage is of, nil when the alert is no outage (the rule above).
    private static func facility(of alert: Alert, headline: [String]) -> FacilityKind? {
        let detail = alert.details.effectDetail.map(Self.enumName)
        let elevatorStatus = alert.details.impact.map(AlertWords.words) == ["elevator", "status"]
        let namesElevator = headline.contains { FacilityKind.elevator.words.contains($0) }
        let namesEscalator = headline.contains { FacilityKind.escalator.words.contains($0) }
        let saysOut = { Self.outagePhrases.contains { AlertWords.contains(headline, phrase: $0) } }
        guard alert.details.effect?.uppercased() == "ACCESSIBILITY_ISSUE" || detail == "ELEVATOR_CLOSURE" || detail == "ESCALATOR_CLOSURE"
                || elevatorStatus || ((namesElevator || namesEscalator) && saysOut()),
              !AccessibilityAdvisory.isRestored(headline: headline) else { return nil }
        if namesElevator { return .elevator }
        if namesEscalator { return .escalator }
        if detail == "ELEVATOR_CLOSURE" || elevatorStatus { return .elevator }
        if detail == "ESCALATOR_CLOSURE" { return .escalator }
        return .other
    }

    private static let outagePhrases = [["unavailable"], ["out", "of", "service"], ["closed"], ["not", "in", "service"]]

    /// `Elevator closure`, `elevator_closure` → `ELEVATOR_CLOSURE`.
    private static func enumName(_ text: String) -> String {
        AlertWords.words(text).joined(separator: "_").uppercased()
    }
}
