/// One row of GTFS `pathways.txt`: a way between two locations within a station. Every field the
/// reference documents is kept (as given, after the row's checks), and two extension columns
/// feeds use to name a unit that alerts also name: `facility_id` and `pathway_code`.
public struct Pathway: Hashable, Sendable {
    public var id: String
    public var fromStopID: String
    public var toStopID: String
    public var mode: PathwayMode
    /// Also walkable `to → from`.
    public var isBidirectional: Bool
    /// Metres.
    public var length: Double?
    /// Seconds.
    public var traversalTime: Int?
    /// Positive going up, negative going down.
    public var stairCount: Int?
    /// Ratio, negative going down.
    public var maxSlope: Double?
    /// Metres.
    public var minWidth: Double?
    public var signpostedAs: String?
    public var reversedSignpostedAs: String?
    /// Extension: the unit's number in the agency's facility list (MBTA's elevators).
    public var facilityID: String?
    /// Extension: the agency's code for the unit.
    public var pathwayCode: String?

    /// What an alert's "Elevator N" or a lift-status unit's id may call the pathway by, the
    /// one matcher of names: `facility_id`, `pathway_code`, `signposted_as`, those given (and a
    /// unit's id may be the `pathway_id` itself: `names(withID: true)`).
    public func names(withID: Bool = false) -> [String] {
        [facilityID, pathwayCode, signpostedAs].compactMap { $0 } + (withID ? [id] : [])
    }

    /// The name an inventory row's `pathway_id` gives the pathway (`--facilities-inventory-url`):
    /// its `pathway_id`, as written.
    public var inventoryName: String { id }

    /// Whether an inventory row names the pathway (`inventoryName`).
    public func isNamed(by row: FacilityInventory.Row) -> Bool { row.pathwayID == inventoryName }

    /// Whether the pathway is one of TfL's lift pathways for the lift `unitID`: TfL publishes one
    /// per pair of landings, `<from>-<to>-lift-<LiftUniqueId>`, so its id ends in `-lift-` and
    /// the lift's id.
    public func isTfLLift(_ unitID: String) -> Bool { id.hasSuffix(Self.tflLiftInfix + unitID) }

    private static let tflLiftInfix = "-lift-"

    /// The phrases an alert's prose may name the pathway by: its `signposted_as` and
    /// `reversed_signposted_as`, folded (`AlertWords`: case aside, a hyphen read as a space,
    /// spaces collapsed), so "Loop-bound platform elevator" is named by "The Loop- bound
    /// platform elevator at Western". Empty phrases are none.
    public var phrases: [[String]] {
        [signpostedAs, reversedSignpostedAs].compactMap { $0.map(AlertWords.words) }.filter { !$0.isEmpty }
    }

    /// Which of `phrases` a text names (its words, `AlertWords.words`), as a run of whole words:
    /// "platform elevator" is not named by "platform elevators".
    public func phrasesNamed(in words: [String]) -> [[String]] {
        phrases.filter { AlertWords.contains(words, phrase: $0) }
    }

    public init(id: String, fromStopID: String, toStopID: String, mode: PathwayMode, isBidirectional: Bool,
                length: Double? = nil, traversalTime: Int? = nil, stairCount: Int? = nil, maxSlope: Double? = nil, minWidth: Double? = nil,
                signpostedAs: String? = nil, reversedSignpostedAs: String? = nil, facilityID: String? = nil, pathwayCode: String? = nil) {
        self.id = id
        self.fromStopID = fromStopID
        self.toStopID = toStopID
        self.mode = mode
        self.isBidirectional = isBidirectional
        self.length = length
        self.traversalTime = traversalTime
        self.stairCount = stairCount
        self.maxSlope = maxSlope
        self.minWidth = minWidth
        self.signpostedAs = signpostedAs
        self.reversedSignpostedAs = reversedSignpostedAs
        self.facilityID = facilityID
        self.pathwayCode = pathwayCode
    }
}
