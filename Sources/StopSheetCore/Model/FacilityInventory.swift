/// Where each unit of a lift-status feed is, when the feed itself does not say
/// (`--facilities-inventory-url`): NYCT's `nyct_ene_equipments.json`, or a deployer's CSV
/// `facility_id,stop_id,pathway_id` (`FacilityInventoryDecoder`).
public struct FacilityInventory: Hashable, Sendable {
    public struct Unit: Hashable, Sendable {
        public var unitID: String
        /// GTFS stop ids (a station's or a platform's).
        public var stopIDs: [String]
        /// The GTFS pathway the unit is, when the inventory names one.
        public var pathwayID: String?
        /// Part of the step-free route (NYCT's `ADA`); nil when not said.
        public var isADA: Bool?
        /// Another unit serves the same way (NYCT's `redundant`); nil when not said.
        public var isRedundant: Bool?
        /// What the unit serves, in the inventory's words.
        public var serving: String

        public init(unitID: String, stopIDs: [String] = [], pathwayID: String? = nil, isADA: Bool? = nil, isRedundant: Bool? = nil,
                    serving: String = "") {
            self.unitID = unitID
            self.stopIDs = stopIDs
            self.pathwayID = pathwayID
            self.isADA = isADA
            self.isRedundant = isRedundant
            self.serving = FacilityText.safe(serving)
        }
    }

    /// In the order given; a unit listed twice (a CSV row per pathway) keeps every row.
    public let units: [Unit]
    private let byID: [String: [Int]]

    public init(units: [Unit]) {
        self.units = units
        var byID: [String: [Int]] = [:]
        for (index, unit) in units.enumerated() { byID[unit.unitID, default: []].append(index) }
        self.byID = byID
    }

    public static let empty = FacilityInventory(units: [])

    /// Every row for a unit id.
    public func units(_ unitID: String) -> [Unit] { byID[unitID]?.map { units[$0] } ?? [] }

    public static func == (lhs: FacilityInventory, rhs: FacilityInventory) -> Bool { lhs.units == rhs.units }
    public func hash(into hasher: inout Hasher) { hasher.combine(units) }
}
