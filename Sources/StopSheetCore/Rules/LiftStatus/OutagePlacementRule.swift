/// The rule that tied an alert's outage to pathways or platforms, written on the wire as the
/// outage's `placedBy`.
public enum OutagePlacementRule: String, Sendable, Hashable, CaseIterable {
    case id, stopReference, direction, line, phrase
}
