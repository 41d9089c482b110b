/// Where each unit of a lift-status feed is, when the feed itself does not say
/// (`--facilities-inventory-url`): NYCT's `nyct_ene_equipments.json`, TfL's `Lifts.csv`, or a
/// deployer's CSV `facility_id,stop_id,pathway_id` (`FacilityInventoryDecoder`). Its rows say
/// where a unit is; the unit itself, with its status, is the status feed's (`FacilityUnit`).
public struct FacilityInventory: Hashable, Sendable {
    public struct Row: Hashable, Sendable {
        public var unitID: String
        /// GTFS stop ids (a station's or a platform's).
        public var stopIDs: [String]
        /// The GTFS pathway the unit is, when the inventory names one.
        public var pathwayID: String?
        /// Part of the step-free route (NYCT's `ADA`); nil when not said.
        public var isADA: Bool?
        /// Another unit serves the same way (NYCT's `redundant`); nil when not said.
        public var isRedundant: Bool?
        /// What the unit serves, in the inventory's words (`UpstreamText.plain`, the decoder's).
        public var serving: String

        public init(unitID: String, stopIDs: [String] = [], pathwayID: String? = nil, isADA: Bool? = nil, isRedundant: Bool? = nil,
                    serving: String = "") {
            self.unitID = unitID
            self.stopIDs = stopIDs
            self.pathwayID = pathwayID
            self.isADA = isADA
            self.isRedundant = isRedundant
            self.serving = serving
        }
    }

    /// In the order given; a unit listed twice (a CSV row per pathway) keeps every row.
    public let rows: [Row]
    private let byUnit: [String: [Int]]

    public init(rows: [Row]) {
        self.rows = rows
        var byUnit: [String: [Int]] = [:]
        for (index, row) in rows.enumerated() { byUnit[row.unitID, default: []].append(index) }
        self.byUnit = byUnit
    }

    public static let empty = FacilityInventory(rows: [])

    /// Every row for a unit id.
    public func rows(for unitID: String) -> [Row] { byUnit[unitID]?.map { rows[$0] } ?? [] }

    public static func == (lhs: FacilityInventory, rhs: FacilityInventory) -> Bool { lhs.rows == rhs.rows }
    public func hash(into hasher: inout Hasher) { hasher.combine(rows) }
}
