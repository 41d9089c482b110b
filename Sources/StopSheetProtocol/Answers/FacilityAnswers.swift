extension Answer {
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

        public enum CodingKeys: String, AnswerKey {
            case stationId, count, stale, units
            public static let omittable: Set<Self> = [.stationId]
        }

        public static let summary = "The lift-status units at the stations, with their statuses."

        public init(stationId: String?, count: Int, stale: Bool, units: [FacilityUnit]) {
            (self.stationId, self.count, self.stale, self.units) = (stationId, count, stale, units)
        }
    }

    /// One unit of a lift-status feed at a station.
    public struct FacilityUnit: AnswerObject {
        public var stationId: String
        public var stationName: String
        /// The feed's id for the unit.
        public var unitId: String
        public var facility: Facility
        /// As it counts now: an upcoming outage before its start is `available`, every unit of stale data `unknown`.
        public var status: UnitStatus
        /// What the unit serves, in the inventory's words; empty when no inventory says.
        public var serving: String
        /// The pathways the unit is placed on; empty when none (an unplaced lift).
        public var pathways: [String]
        public var since: String?
        public var expectedBack: String?
        /// The feed's own text, made safe for terminals.
        public var description: String

        public enum CodingKeys: String, AnswerKey {
            case stationId, stationName, unitId, facility, status, serving, pathways, since, expectedBack, description
        }

        public static let summary = "A lift-status unit at a station: its id, kind, status, what it serves, its pathways, times and text."

        public init(stationId: String, stationName: String, unitId: String, facility: Facility, status: UnitStatus, serving: String, pathways: [String], since: String?, expectedBack: String?, description: String) {
            (self.stationId, self.stationName, self.unitId, self.facility, self.status, self.serving, self.pathways, self.since, self.expectedBack, self.description) = (stationId, stationName, unitId, facility, status, serving, pathways, since, expectedBack, description)
        }
    }
}
