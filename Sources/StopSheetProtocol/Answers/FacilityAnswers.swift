import StopSheetCore

extension StopSheetCore.FacilityPlacement.Rule: AnswerWord {}
extension StopSheetCore.FacilityPlacement.Unplaced: AnswerWord {}
extension StopSheetCore.FacilityJoin.Rule: AnswerWord {}

extension Answer {
    public typealias PlacementRule = StopSheetCore.FacilityPlacement.Rule
    public typealias UnplacedReason = StopSheetCore.FacilityPlacement.Unplaced
    public typealias JoinRule = StopSheetCore.FacilityJoin.Rule

    /// `facilities`' result: the lift-status units at the stations, every status, `available`
    /// ones included (a sheet's `now` lists only those out). Since protocol 2.1.
    public struct Facilities: AnswerObject {
        /// The station asked for; left out when all stations are listed.
        public var stationId: String?
        public var count: Int
        /// The lift status is older than its stale-after: every unit counts as `unknown`, as here.
        public var stale: Bool
        /// By station, in the stations' order; in feed order within one.
        public var units: [FacilityUnit]

        public enum CodingKeys: String, AnswerKey { case stationId, count, stale, units }

        public static let summary = "The lift-status units at the stations, with their statuses."

        public init(stationId: String?, count: Int, stale: Bool, units: [FacilityUnit]) {
            (self.stationId, self.count, self.stale, self.units) = (stationId, count, stale, units)
        }
    }

    /// One unit of a lift-status feed at a station.
    public struct FacilityUnit: AnswerObject {
        /// `noStation` (empty) for a unit at no station (`unplaced` `noSuchStation`).
        public var stationId: String
        public var stationName: String
        /// The feed's id for the unit.
        public var unitId: String
        public var facility: Facility
        /// As it counts now: an upcoming outage before its start is `available`, every unit of stale data `unknown`.
        public var status: UnitStatus
        /// What the unit serves: the inventory's words, else the status feed's own (FaSta's `description`, IDFM's `liftSituation, liftDirection`); empty when neither says.
        public var serving: String
        /// The pathways the unit is placed on; empty when none (an unplaced lift).
        public var pathways: [String]
        /// The rule that placed it; left out when unplaced.
        public var placedBy: PlacementRule?
        /// Why no rule placed it; left out when placed.
        public var unplaced: UnplacedReason?
        /// The pathways (lifts) any one of which may be the unplaced unit; left out when none.
        public var candidates: [String]?
        public var since: Nullable<String>
        public var expectedBack: Nullable<String>
        /// The feed's own text, made safe for terminals.
        public var description: String
        /// Which rule put the unit at its station (since 2.5); left out for a unit at no station.
        public var joinedBy: JoinRule?
        /// For `joinedBy` `position`: how far the station's nearest stop is, in whole metres (since 2.5); left out otherwise.
        public var distance: Int?
        /// For a unit at no station: why, in plain words (since 2.5); left out otherwise.
        public var notJoined: String?

        /// What `stationId` and `stationName` say for a unit at no station: the empty string, as
        /// the wire has always written it (the daemon says nil).
        public static let noStation = ""

        public enum CodingKeys: String, AnswerKey {
            case stationId, stationName, unitId, facility, status, serving, pathways, placedBy, unplaced, candidates, since, expectedBack, description,
                 joinedBy, distance, notJoined
        }

        public static let summary = "A lift-status unit at a station: its id, kind, status, what it serves, its placement on the pathways, times and text."

        public init(stationId: String, stationName: String, unitId: String, facility: Facility, status: UnitStatus, serving: String, pathways: [String],
                    placedBy: PlacementRule?, unplaced: UnplacedReason?, candidates: [String]?, since: String?, expectedBack: String?, description: String,
                    joinedBy: JoinRule?, distance: Int?, notJoined: String?) {
            (self.joinedBy, self.distance, self.notJoined) = (joinedBy, distance, notJoined)
            (self.stationId, self.stationName, self.unitId, self.facility, self.status, self.serving, self.pathways) = (stationId, stationName, unitId, facility, status, serving, pathways)
            (self.placedBy, self.unplaced, self.candidates, self.since, self.expectedBack, self.description) = (placedBy, unplaced, candidates, Nullable(since), Nullable(expectedBack), description)
        }
    }

    /// `health.facilities.joined` (since 2.5): the lift-status units of the last load by the rule
    /// that put each at its station (a unit at two stations counted once), and those at none.
    public struct JoinedCounts: AnswerObject {
        public var inventory: Int
        public var feed: Int
        public var stationCode: Int
        public var table: Int
        public var position: Int
        public var pathway: Int
        public var noStation: Int

        public enum CodingKeys: String, AnswerKey { case inventory, feed, stationCode, table, position, pathway, noStation }

        public static let summary = "How many lift-status units each join rule put at their stations, and how many are at no station."

        public init(inventory: Int, feed: Int, stationCode: Int, table: Int, position: Int, pathway: Int, noStation: Int) {
            (self.inventory, self.feed, self.stationCode, self.table, self.position, self.pathway, self.noStation) = (inventory, feed, stationCode, table, position, pathway, noStation)
        }
    }

    /// `health.facilities.placement`: the lift-status units of the last load by where they are.
    public struct PlacementCounts: AnswerObject {
        public var placed: Int
        /// A place it names is no level of its station's map (a garage elevator).
        public var offTheMap: Int
        /// Two or more lifts join its two levels.
        public var ambiguous: Int
        /// At no station, or no rule matched.
        public var unplaced: Int

        public enum CodingKeys: String, AnswerKey { case placed, offTheMap, ambiguous, unplaced }

        public static let summary = "How many lift-status units are placed on pathways, off the map, ambiguous and otherwise unplaced."

        public init(placed: Int, offTheMap: Int, ambiguous: Int, unplaced: Int) {
            (self.placed, self.offTheMap, self.ambiguous, self.unplaced) = (placed, offTheMap, ambiguous, unplaced)
        }
    }
}
