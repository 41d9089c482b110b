/// The accessibility button's `now`: whether each platform of a station can be entered and left
/// step-free at this moment, from the station's pathways and its live facility outages
/// (docs/stop-sheet.md §2.4). It stands beside the spec's sentence and tone, which do
/// not change.
///
/// - **basis `pathways`** (the station has pathways): a platform has entry when a step-free street
///   end reaches it over step-free pathways that no outage takes out, exit when it reaches one
///   (`StationTopology`); `available` when every platform has both, `none` when none has both,
///   else `partial`. Each platform lists its ways (`via`: the street ends it is reached from or
///   leads to with every pathway open, each walked alone, and whether each still does), and its
///   entry and exit are its ways' (`Way.access(via:)`).
/// - **basis `stations`** (no pathways): each platform's reported value as its entry and exit,
///   its `true`s made `nil` by an elevator outage that could be on its way (`StepFreeWithoutMap`).
/// - An alert's outage (`AlertOutage`) and a lift-status unit at the station (`--facilities-url`,
///   `FacilityJoin`) are placed on its pathways by `FacilityPlacement`. An alert's outage takes
///   out the pathways it is placed on. A unit `notAvailable` takes its pathways out as an alert
///   does; `partiallyAvailable` leaves them up and is listed; `unknown` (and every unit of stale
///   data) leaves them neither up nor out: a platform whose entry or exit differs with them out
///   has it `nil`.
/// - An elevator unit that is not placed is never taken as up: a platform that loses entry or
///   exit with **any one** of its candidates out (`ambiguous`: the lifts between its two levels;
///   `noRuleMatched`: every elevator of the station) has it `nil`. So does an elevator alert that
///   places no pathway, every elevator of the station its candidate. One off the map takes
///   nothing out; like every unplaced elevator outage, it makes `complete` false.
/// - Without pathways, an elevator alert whose prose names platforms (`PlatformPlacement`) makes
///   their `true`s `nil` (an exit-only one, their exit's); one that names none and a unit
///   `notAvailable` or `unknown` could be any of the station's elevators: every platform's `true`
///   is `nil`. Either way `complete` is false; a unit the feed or inventory marks not ADA, or
///   redundant, is listed and changes nothing.
/// - A station whose map knows no street (`StationTopology.hasStreet`: no step-free entrance, no
///   `<station>-Outside` node) is `unknown`, every platform's entry and exit `nil`, `complete`
///   false, and `reason` says why: never `none`, which says the map shows no step-free way from
///   a street it knows.
/// - `complete` is false when an elevator outage at the station places no pathway, when a
///   platform's entry or exit is `nil`, or, without pathways, while an elevator outage that could
///   be on a platform's way stands.
public struct StepFreeNow: Hashable, Sendable {
    public enum Verdict: String, Hashable, Sendable, CaseIterable {
        case available, partial, none, unknown
    }

    public enum Basis: String, Hashable, Sendable, CaseIterable {
        case pathways, stations
    }

    /// Why the pathways say nothing, in a sentence for the rider; the verdict is then `unknown`.
    public enum Reason: String, Hashable, Sendable, CaseIterable {
        case noStreet = "The station's map shows no street (no step-free entrance, no street node), so its pathways cannot say which platforms are step-free."
    }

    public struct PlatformAccess: Hashable, Sendable {
        public var stopID: String
        public var name: String
        /// Nil on basis `stations`: nothing says. On a map, derived from `via` (`Way.access(via:)`).
        public var entry: Bool?
        public var exit: Bool?
        /// The platform's ways on a map that shows a street (`Way`); nil without a map, and where
        /// the map shows no street.
        public var via: [Way]?

        public init(stopID: String, name: String, entry: Bool?, exit: Bool?, via: [Way]? = nil) {
            self.stopID = stopID
            self.name = name
            self.entry = entry
            self.exit = exit
            self.via = via
        }

        /// A platform on a map with a street: its entry and exit are its ways' (`Way.access`).
        public init(stopID: String, name: String, via: [Way], surely: (entry: Bool, exit: Bool) = (false, false)) {
            let access = Way.access(via: via, surely: surely)
            self.init(stopID: stopID, name: name, entry: access.entry, exit: access.exit, via: via)
        }
    }

    /// What the verdict lists as out (the wire's `FacilityOutage`): an alert's outage, or a
    /// lift-status unit that is not `available`.
    public struct Outage: Hashable, Sendable {
        /// Where the outage was heard: an alert, or a lift-status feed (`--facilities-url`).
        public enum Source: String, Hashable, Sendable, CaseIterable {
            case alerts, facilities
        }

        /// The alert's id; nil for a lift-status unit (`facilityID` is its id).
        public var alertID: String?
        public var facility: FacilityKind
        /// The first number the headline gives as "Elevator N", if any; a lift-status unit's id.
        public var facilityID: String?
        /// The ids of the pathways it takes out (or, `unknown`, may take out), in `pathways.txt` order.
        public var pathways: [String]
        public var source: Source
        /// `notAvailable` for every alert; a lift-status unit's own (never `available`: an
        /// available unit is no outage).
        public var status: FacilityUnit.Status
        public var since: Instant?
        public var expectedBack: Instant?
        /// The feed's own text, made plain (`UpstreamText.plain`); empty for an alert
        /// (its headline is in the sheet already).
        public var description: String
        /// Why the outage places no pathway (`FacilityPlacement`; an elevator alert's is
        /// `noRuleMatched`); nil for a placed one, and for an escalator or other alert.
        public var unplaced: FacilityPlacement.Unplaced?
        /// The pathway ids of the lifts any one of which may be the outage placed on none.
        public var candidates: [String]
        /// How an alert's outage was placed: on pathways (`id`, `stopReference`), or, without a
        /// map, on platforms (`direction`, `line`: `PlatformPlacement`); nil when not placed.
        public var placedBy: OutagePlacementRule?
        /// Without a map, the stop ids of the platforms whose values it nulls (`placedBy`
        /// `direction` or `line`); empty otherwise.
        public var platforms: [String]

        public init(alertID: String?, facility: FacilityKind, facilityID: String?, pathways: [String], source: Source = .alerts,
                    status: FacilityUnit.Status = .notAvailable, since: Instant? = nil, expectedBack: Instant? = nil, description: String = "",
                    unplaced: FacilityPlacement.Unplaced? = nil, candidates: [String] = [], placedBy: OutagePlacementRule? = nil,
                    platforms: [String] = []) {
            self.placedBy = placedBy
            self.platforms = platforms
            self.unplaced = unplaced
            self.candidates = candidates
            self.alertID = alertID
            self.facility = facility
            self.facilityID = facilityID
            self.pathways = pathways
            self.source = source
            self.status = status
            self.since = since
            self.expectedBack = expectedBack
            self.description = description
        }

        /// An elevator outage that places no pathway: the verdict cannot say what it takes out.
        public var isUnresolved: Bool { Self.isUnresolved(facility: facility, pathways: pathways, status: status) }

        /// The rule of `isUnresolved`, for a reader of the answer (stopsheetctl names them). A
        /// partly available elevator takes nothing out, placed or not.
        public static func isUnresolved(facility: FacilityKind, pathways: [String], status: FacilityUnit.Status = .notAvailable) -> Bool {
            facility == .elevator && pathways.isEmpty && status != .partiallyAvailable
        }
    }

    public var stepFree: Verdict
    public var basis: Basis
    public var complete: Bool
    /// The station's platforms, in the station's order.
    public var platforms: [PlatformAccess]
    /// Elevators first, then escalators, then others; the order given within each.
    public var outages: [Outage]
    /// Why the verdict is `unknown` when the pathways cannot say; nil otherwise.
    public var reason: Reason?

    /// The verdict at `now` from the alerts that apply to the station (live or not: only those
    /// active at `now` that are facility outages count; planned ones do not until they start).
    public init(station: Station, topology: StationTopology?, applying alerts: [Alert], now: Instant, facilities: [FacilityUnit] = []) {
        self.init(station: station, topology: topology,
                  outages: alerts.lazy.filter { $0.kind(at: now) == .active }.compactMap(AlertOutage.init), facilities: facilities)
    }

    /// The verdict from the station's active facility outages (a snapshot classifies each alert
    /// once, not once per station) and the units a lift-status feed reports there
    /// (`FacilityJoin`, statuses as they count now; `available` ones change nothing).
    public init(station: Station, topology: StationTopology?, outages active: [AlertOutage], facilities: [FacilityUnit] = []) {
        var outages: [Outage] = []
        var closed: Set<Int> = []
        var unsure: Set<Int> = []
        var anyOneOf: [Int] = []
        let topology = topology.flatMap { $0.pathways.isEmpty ? nil : $0 }
        let units = facilities.filter { $0.status != .available }
        let ids = { (positions: [Int]) in positions.map { topology!.pathways[$0].id } }
        let alertPlacements = active.map { FacilityPlacement.place($0, on: topology) }
        // Without a map, an elevator alert's prose may name its platforms.
        let platformPlacements = active.map { $0.facility == .elevator && topology == nil ? PlatformPlacement.place($0, at: station) : nil }
        let unitPlacements = units.map { unit in
            let placement = FacilityPlacement.place(unit, on: topology)
            return (placement, placement.kind(of: unit, on: topology))
        }
        for facility in FacilityKind.allCases {
            for ((outage, placed), onPlatforms) in zip(zip(active, alertPlacements), platformPlacements) where outage.facility == facility {
                let placement = placed?.placement
                closed.formUnion(placement?.pathways ?? [])
                anyOneOf.append(contentsOf: placement?.candidates ?? [])
                let placedBy = onPlatforms?.rule ?? placed?.placedBy
                outages.append(Outage(alertID: outage.alertID, facility: outage.facility, facilityID: outage.elevatorNumbers.first,
                                      pathways: ids(placement?.pathways ?? []), unplaced: placement?.unplaced,
                                      candidates: ids(placement?.candidates ?? []), placedBy: placedBy, platforms: onPlatforms?.platforms ?? []))
            }
            for (unit, (placement, kind)) in zip(units, unitPlacements) where kind == facility {
                switch unit.status {
                case .notAvailable: closed.formUnion(placement.pathways)
                case .unknown: unsure.formUnion(placement.pathways)
                case .partiallyAvailable, .available: break
                }
                // Any one of an unplaced elevator's candidates may be out.
                if kind != .escalator, unit.status != .partiallyAvailable { anyOneOf.append(contentsOf: placement.candidates) }
                outages.append(Outage(alertID: nil, facility: kind, facilityID: unit.unitID, pathways: ids(placement.pathways),
                                      source: .facilities, status: unit.status, since: unit.since,
                                      expectedBack: unit.expectedBack, description: unit.description,
                                      unplaced: placement.unplaced, candidates: ids(placement.candidates)))
            }
        }
        self.outages = outages
        guard let topology else {
            // Without a map, never available by default (`StepFreeWithoutMap`).
            basis = .stations
            // An elevator alert whose prose names platforms reaches those; any other, every one.
            let alertReaches = zip(active, platformPlacements).filter { $0.0.facility == .elevator }.map { _, placed in
                placed.map { StepFreeWithoutMap.Reach(platforms: Set($0.platforms), exitOnly: $0.exitOnly) } ?? .everyPlatform
            }
            let unitReaches = zip(units, unitPlacements).filter { unit, placed in StepFreeWithoutMap.couldBeAnyElevator(unit, kind: placed.1) }
                .map { _ in StepFreeWithoutMap.Reach.everyPlatform }
            let reaches = alertReaches + unitReaches
            platforms = StepFreeWithoutMap.platforms(of: station, reaches: reaches)
            stepFree = StepFreeWithoutMap.verdict(platforms)
            complete = reaches.isEmpty
            return
        }
        basis = .pathways
        guard topology.hasStreet else {
            (stepFree, complete, reason) = (.unknown, false, .noStreet)
            platforms = station.platforms.map { platform in
                let name = topology.platformIDs.firstIndex(of: platform.stopID).map { topology.platformNames[$0] } ?? ""
                return PlatformAccess(stopID: platform.stopID, name: name.isEmpty ? station.name : name, entry: nil, exit: nil)
            }
            return
        }
        complete = !outages.contains(where: \.isUnresolved)
        let ways = topology.ways(closedPathways: closed)
        // An `unknown` unit may be out or not: a way whose entry or exit differs between the two
        // has none said.
        // So may any one candidate of an unplaced elevator: a way lost with one of them out has
        // none said either. The platform's own entry and exit are its ways' (`Way.access(via:)`).
        var doubts = unsure.subtracting(closed).isEmpty ? [] : [topology.ways(closedPathways: closed.union(unsure))]
        for candidate in Set(anyOneOf) where !closed.contains(candidate) {
            doubts.append(topology.ways(closedPathways: closed.union([candidate])))
        }
        // A platform the pathways do not reach at all has no way, so neither entry nor exit: the
        // reference asks a feed with pathways to give them for the whole station. Both lists are
        // usually in the same order; a station has few platforms, so a search beats a
        // dictionary otherwise.
        platforms = station.platforms.enumerated().map { index, platform in
            let ids = topology.platformIDs
            guard let position = index < ids.count && ids[index] == platform.stopID ? index : ids.firstIndex(of: platform.stopID) else {
                return PlatformAccess(stopID: platform.stopID, name: station.name, via: [])
            }
            let name = topology.platformNames[position]
            let via = topology.openWays[position].enumerated().map { way, end in
                let best = ways[position][way], street = topology.locations[topology.streetEnds[end]]
                return Way(id: street.id, name: street.name,
                           entry: doubts.allSatisfy { $0[position][way].entry == best.entry } ? best.entry : nil,
                           exit: doubts.allSatisfy { $0[position][way].exit == best.exit } ? best.exit : nil)
            }
            // Whether some way works whichever outage in doubt is out.
            let surely = (entry: ([ways] + doubts).allSatisfy { $0[position].contains(where: \.entry) },
                          exit: ([ways] + doubts).allSatisfy { $0[position].contains(where: \.exit) })
            return PlatformAccess(stopID: platform.stopID, name: name.isEmpty ? station.name : name, via: via, surely: surely)
        }
        if platforms.contains(where: { $0.entry == nil || $0.exit == nil }) { complete = false }
        let both = platforms.filter { $0.entry == true && $0.exit == true }.count
        let undecided = platforms.filter { ($0.entry == nil || $0.exit == nil) && $0.entry != false && $0.exit != false }.count
        stepFree = platforms.isEmpty ? .unknown : both == platforms.count ? .available
            : both == 0 && undecided == 0 ? .none : both == 0 && undecided == platforms.count ? .unknown : .partial
    }

    /// The verdict of a station nothing more is known of (before stations load): its reported
    /// value, no platforms, no outages.
    public static func reported(_ status: StepFreeStatus) -> StepFreeNow {
        StepFreeNow(stepFree: reported(status), basis: .stations, complete: true, platforms: [], outages: [])
    }

    public init(stepFree: Verdict, basis: Basis, complete: Bool, platforms: [PlatformAccess], outages: [Outage], reason: Reason? = nil) {
        self.reason = reason
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
