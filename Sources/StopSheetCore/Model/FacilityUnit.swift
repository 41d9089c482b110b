/// A lift *unit*: one elevator, escalator or other access facility as a live lift-status feed
/// reports it (SIRI-FM, WMATA's `ElevatorIncidents`, NYC Transit's ENE outages, TfL's lift
/// disruptions), in the feed's own words, with what the inventory says of it once joined to a
/// station (`FacilityJoin`). An *outage* is an alert's (`AlertOutage`); the step-free verdict
/// lists both (`StepFreeNow.Outage`). Where a unit is on the pathways is `FacilityPlacement`'s.
public struct FacilityUnit: Hashable, Sendable {
    /// SIRI-FM's four values, which the other feeds map onto: a listed outage is `notAvailable`.
    public enum Status: String, Hashable, Sendable, CaseIterable {
        case available, notAvailable, partiallyAvailable, unknown
    }

    /// Where the feed says the unit is, when it says: each hint is tried in
    /// `FacilityPlacement`'s order.
    public struct Location: Hashable, Sendable {
        /// GTFS stop ids (NYCT's station ids, SIRI-FM's `StopPlaceRef`/`StopPointRef`).
        public var stopIDs: [String]
        /// WMATA's `StationCode` (`A01`): the GTFS station whose id holds it, `STN_A01` or `STN_A01_C01`.
        public var stationCode: String?
        /// The feed's own reference of the unit's station, for a feed that names none of the
        /// station data's ids: DB FaSta's `stationnumber`, IDFM's `ZdcId`. A deployer's table
        /// (`--facilities-stations-url`) turns it into stops.
        public var stationRef: String?
        /// Where the feed says the unit stands (FaSta's `geocoordY`/`geocoordX`, IDFM's
        /// `ZdcCentroid`): the position join's (`--facilities-radius`) input.
        public var position: Coordinate?
        /// The two levels a WMATA "Elevator between Street and Mezzanine" joins, lowercased, as
        /// written: `["street", "mezzanine"]`; the one place of a "Garage elevator", `["garage"]`
        /// (`FacilityLevels`). Empty when the words name none.
        public var levels: [String]

        public init(stopIDs: [String] = [], stationCode: String? = nil, stationRef: String? = nil,
                    position: Coordinate? = nil, levels: [String] = []) {
            self.stopIDs = stopIDs
            self.stationCode = stationCode
            self.stationRef = stationRef
            self.position = position
            self.levels = levels
        }
    }

    /// The feed's id for the unit (`EL433`, `A01W03`, `diid:…`).
    public var unitID: String
    public var facility: FacilityKind
    public var status: Status
    /// Out since (or, for an upcoming outage, out from).
    public var since: Instant?
    public var expectedBack: Instant?
    /// An outage announced before it starts (NYCT's `isupcomingoutage`): it counts from `since`
    /// to `expectedBack`, as a planned alert does, and not before.
    public var isUpcoming: Bool
    /// The feed's own text (what the unit serves, why it is out), made plain by its decoder
    /// (`UpstreamText.plain`).
    public var description: String
    /// What the unit serves in the feed's own words, for a feed that says it apart from its status
    /// text (DB FaSta's `description`, "zu Gleis 1"; IDFM's `liftSituation` and `liftDirection`),
    /// made plain as `description` is; empty when the feed does not say. The inventory's
    /// `serving`, when it has one, is the deployer's and wins in the `facilities` answer.
    public var serving: String
    /// Whether the feed marks the unit as part of the step-free route (NYCT's `ADA`); nil when
    /// it does not say.
    public var isADA: Bool?
    public var location: Location
    /// The inventory's rows for the unit (`--facilities-inventory-url`), set by the join.
    public var inventory: [FacilityInventory.Row]
    /// Which rule of the join put the unit at this station (`FacilityJoin.Rule`), set by the join;
    /// nil for a unit at no station.
    public var joinedBy: FacilityJoin.Rule?
    /// For `joinedBy` `position`: how far the station's nearest stop is from the unit, in metres.
    public var distanceMeters: Double?
    /// For a unit at no station: why, in plain words (`FacilityJoin.whyNowhere`), set by the join.
    public var notJoined: String?

    public init(unitID: String, facility: FacilityKind, status: Status, since: Instant? = nil, expectedBack: Instant? = nil,
                isUpcoming: Bool = false, description: String = "", serving: String = "", isADA: Bool? = nil, location: Location = Location(),
                inventory: [FacilityInventory.Row] = []) {
        self.unitID = unitID
        self.facility = facility
        self.status = status
        self.since = since
        self.expectedBack = expectedBack
        self.isUpcoming = isUpcoming
        self.description = description
        self.serving = serving
        self.isADA = isADA
        self.location = location
        self.inventory = inventory
    }

    /// The status that counts at `now`: an upcoming outage is `available` before its start and
    /// after its expected end; every other status stands as reported.
    public func status(at now: Instant) -> Status {
        guard isUpcoming else { return status }
        if let since, now < since { return .available }
        if let expectedBack, now >= expectedBack { return .available }
        return status
    }
}
