/// The accessibility button's `now`: whether each platform of a station can be entered and left
/// step-free at this moment, from the station's pathways and its live facility outages
/// (docs/stop-sheet.md §2.4). It stands beside the spec's sentence and tone, which do
/// not change.
///
/// - **basis `pathways`** (the station has pathways): a platform has entry when a step-free street
///   end reaches it over step-free pathways that no outage takes out, exit when it reaches one
///   (`StationTopology`); `available` when every platform has both, `none` when none has both,
///   else `partial`.
/// - **basis `stations`** (no pathways): the station's reported value; entry and exit unknown.
/// - An outage takes out the elevator pathways whose `facility_id`, `pathway_code` or
///   `signposted_as` is a number its headline gives as "Elevator N", and those ending at a
///   generic node or boarding area it names (an escalator outage takes out no elevator).
/// - `complete` is false when an elevator outage at the station places no pathway.
public struct StepFreeNow: Hashable, Sendable {
    public enum Verdict: String, Hashable, Sendable, CaseIterable {
        case available, partial, none, unknown
    }

    public enum Basis: String, Hashable, Sendable, CaseIterable {
        case pathways, stations
    }

    public struct PlatformAccess: Hashable, Sendable {
        public var stopID: String
        public var name: String
        /// Nil on basis `stations`: nothing says.
        public var entry: Bool?
        public var exit: Bool?

        public init(stopID: String, name: String, entry: Bool?, exit: Bool?) {
            self.stopID = stopID
            self.name = name
            self.entry = entry
            self.exit = exit
        }
    }

    public struct Outage: Hashable, Sendable {
        public var alertID: String
        public var facility: FacilityOutage.Facility
        /// The first number the headline gives as "Elevator N", if any.
        public var facilityID: String?
        /// The ids of the pathways it takes out, in `pathways.txt` order.
        public var pathways: [String]

        public init(alertID: String, facility: FacilityOutage.Facility, facilityID: String?, pathways: [String]) {
            self.alertID = alertID
            self.facility = facility
            self.facilityID = facilityID
            self.pathways = pathways
        }

        /// An elevator outage that places no pathway: the verdict cannot say what it takes out.
        public var isUnresolved: Bool { Self.isUnresolved(facility: facility, pathways: pathways) }

        /// The rule of `isUnresolved`, for a reader of the answer (stopsheetctl names them).
        public static func isUnresolved(facility: FacilityOutage.Facility, pathways: [String]) -> Bool {
            facility == .elevator && pathways.isEmpty
        }
    }

    public var stepFree: Verdict
    public var basis: Basis
    public var complete: Bool
    /// The station's platforms, in the station's order.
    public var platforms: [PlatformAccess]
    /// Elevators first, then escalators, then others; the order given within each.
    public var outages: [Outage]

    /// The verdict at `now` from the alerts that apply to the station (live or not: only those
    /// active at `now` that are facility outages count; planned ones do not until they start).
    public init(station: Station, topology: StationTopology?, applying alerts: [Alert], now: Instant) {
        self.init(station: station, topology: topology,
                  outages: alerts.lazy.filter { $0.kind(at: now) == .active }.compactMap(FacilityOutage.init))
    }

    /// The verdict from the station's active facility outages (a snapshot classifies each alert
    /// once, not once per station).
    public init(station: Station, topology: StationTopology?, outages active: [FacilityOutage]) {
        var outages: [Outage] = []
        var closed: Set<Int> = []
        let topology = topology.flatMap { $0.pathways.isEmpty ? nil : $0 }
        for facility in FacilityOutage.Facility.allCases {
            for outage in active where outage.facility == facility {
                var placed: [Int] = []
                if let topology, outage.facility != .escalator {
                    let numbers = outage.elevatorNumbers
                    // The named generic nodes and boarding areas, as positions: an alert names few.
                    let named = outage.namedStops.compactMap { id -> Int? in
                        guard let index = topology.index(of: id) else { return nil }
                        switch topology.locations[index].role {
                        case .genericNode, .boardingArea: return index
                        default: return nil
                        }
                    }
                    placed = topology.elevatorPathways.filter { position in
                        let ends = topology.pathwayEnds[position]
                        if named.contains(ends.from) || named.contains(ends.to) { return true }
                        guard !numbers.isEmpty else { return false }
                        let pathway = topology.pathways[position]
                        return [pathway.facilityID, pathway.pathwayCode, pathway.signpostedAs].contains { $0.map(numbers.contains) ?? false }
                    }
                    closed.formUnion(placed)
                }
                outages.append(Outage(alertID: outage.alertID, facility: outage.facility, facilityID: outage.elevatorNumbers.first,
                                      pathways: placed.map { topology!.pathways[$0].id }))
            }
        }
        self.outages = outages
        complete = !outages.contains(where: \.isUnresolved)
        guard let topology else {
            basis = .stations
            stepFree = Self.reported(station.stepFree)
            platforms = station.platforms.map { PlatformAccess(stopID: $0.stopID, name: station.name, entry: nil, exit: nil) }
            return
        }
        basis = .pathways
        let access = topology.access(closedPathways: closed)
        // A platform the pathways do not reach at all has neither: the reference asks a feed with
        // pathways to give them for the whole station. Both lists are usually in the same order;
        // a station has few platforms, so a search beats a dictionary otherwise.
        platforms = station.platforms.enumerated().map { index, platform in
            let ids = topology.platformIDs
            guard let position = index < ids.count && ids[index] == platform.stopID ? index : ids.firstIndex(of: platform.stopID) else {
                return PlatformAccess(stopID: platform.stopID, name: station.name, entry: false, exit: false)
            }
            let name = topology.platformNames[position]
            return PlatformAccess(stopID: platform.stopID, name: name.isEmpty ? station.name : name,
                                  entry: access[position].entry, exit: access[position].exit)
        }
        let both = platforms.filter { $0.entry == true && $0.exit == true }.count
        stepFree = platforms.isEmpty ? .unknown : both == platforms.count ? .available : both == 0 ? .none : .partial
    }

    /// The verdict of a station nothing more is known of (before stations load): its reported
    /// value, no platforms, no outages.
    public static func reported(_ status: StepFreeStatus) -> StepFreeNow {
        StepFreeNow(stepFree: reported(status), basis: .stations, complete: true, platforms: [], outages: [])
    }

    public init(stepFree: Verdict, basis: Basis, complete: Bool, platforms: [PlatformAccess], outages: [Outage]) {
        self.stepFree = stepFree
        self.basis = basis
        self.complete = complete
        self.platforms = platforms
        self.outages = outages
    }

    private static func reported(_ status: StepFreeStatus) -> Verdict {
        switch status {
        case .available: return .available
        case .none: return .none
        case .unknown: return .unknown
        }
    }
}
