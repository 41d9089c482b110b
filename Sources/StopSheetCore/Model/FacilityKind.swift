/// What an access facility is, for a lift-status unit and an alert's outage alike: an elevator, an
/// escalator or another kind (a ramp, a stair lift, a unit no word classifies).
public enum FacilityKind: String, Hashable, Sendable, CaseIterable {
    case elevator, escalator, other
}
