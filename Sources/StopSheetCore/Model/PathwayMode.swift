/// GTFS `pathways.txt` `pathway_mode`: how a rider goes from one end of a pathway to the other.
public enum PathwayMode: Int, Sendable, CaseIterable, Hashable {
    case walkway = 1
    case stairs = 2
    case movingSidewalk = 3
    case escalator = 4
    case elevator = 5
    case fareGate = 6
    case exitGate = 7

    /// Whether a wheelchair can take it: everything but stairs and escalators.
    public var isStepFree: Bool {
        switch self {
        case .stairs, .escalator: return false
        case .walkway, .movingSidewalk, .elevator, .fareGate, .exitGate: return true
        }
    }
}
