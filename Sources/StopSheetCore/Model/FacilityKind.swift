/// What an access facility is, for a lift-status unit and an alert's outage alike: an elevator, an
/// escalator or another kind (a ramp, a stair lift, a unit no word classifies). The one list of
/// the words that name a kind: an alert's headline, a unit's description, a feed's class.
public enum FacilityKind: String, Hashable, Sendable, CaseIterable {
    case elevator, escalator, other

    /// The words an alert's headline names the kind by, singular and plural ("Elevator at 69th
    /// out of service", "Escalators closed"); none for `other`. "Lift" is not among them: the
    /// agencies whose alerts are read write "elevator", and a "lift" in their prose is a verb.
    public var words: Set<String> {
        switch self {
        case .elevator: Self.elevatorWords
        case .escalator: Self.escalatorWords
        case .other: []
        }
    }

    // Stored once: `words` is asked for every word of every alert's headline, and a set literal
    // in its body would be built again on each asking.
    private static let elevatorWords: Set<String> = ["elevator", "elevators"]
    private static let escalatorWords: Set<String> = ["escalator", "escalators"]

    /// The British and SIRI word for an elevator (SIRI-FM's `FacilityClass` `lift`; TfL's lifts).
    public static let liftWords: Set<String> = ["lift", "lifts"]

    /// Every word that names a unit rather than a place, in a unit's own description ("Garage
    /// elevator", "Street lift"): the kinds' words, the lift's, and "unit".
    public static let unitWords: Set<String> = elevator.words.union(escalator.words).union(liftWords).union(["unit"])

    /// The kind a feed's own word for it names (SIRI-FM's `FacilityClass` `lift`, WMATA's
    /// `UnitType` `ELEVATOR`), case aside; nil or any other word is `other`.
    public init(feedWord: String?) {
        let word = feedWord?.lowercased() ?? ""
        if Self.elevator.words.contains(word) || Self.liftWords.contains(word) { self = .elevator }
        else if Self.escalator.words.contains(word) { self = .escalator }
        else { self = .other }
    }
}
