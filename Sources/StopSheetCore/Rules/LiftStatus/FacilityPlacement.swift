/// Where a lift-status unit or an alert's outage is on its station's pathways, or why it is
/// nowhere: the one place that decides it (the verdict, the `facilities` answer,
/// `health.facilities` and the deployer's list of units to map all read it). Which station a
/// unit is at is decided before, by `FacilityJoin`; pathways are matched by name through
/// `Pathway.names(withID:)`, by inventory rows through `Pathway.isNamed(by:)`, and in rule 3
/// also by TfL's `-lift-` ending (`Pathway.isTfLLift`).
///
/// A **unit**: the first rule that finds pathways places it:
/// 1. `inventory`: the pathways its inventory rows name (`--facilities-inventory-url`);
/// 2. `stopReference`: the lifts ending at a generic node or boarding area an inventory row names;
/// 3. `id`: the pathways whose `facility_id`, `pathway_code`, `signposted_as` or `pathway_id` is
///    the unit's id, else the lifts whose `pathway_id` ends in `-lift-` and the unit's id (TfL's
///    lift pathways, one per pair of landings: `<from>-<to>-lift-<LiftUniqueId>`);
/// 4. `node`: the lifts ending at the stop whose id is the unit's;
/// 5. `levels`: WMATA's words, the lift whose end node says the same two levels in its `stop_name`
///    or `stop_desc` ("Top of Elevator Between Street and  Platform") as the unit's
///    `LocationDescription` ("Elevator between street and platform, east side …"), in either
///    order, whitespace, case and the word "level" aside; when no lift does, the one whose two
///    levels could be the unit's, each the other's words or part of them ("platform" could be
///    "Silver Line Platform").
///
/// A lift is an elevator for an elevator unit (and one of no stated kind), an escalator for an
/// escalator unit: an escalator outage never takes out an elevator. Each pathway is one lift (two
/// one-way escalators are two). A unit no rule places is:
/// - `ambiguous` when two or more lifts join its two levels, or could (they are its candidates);
/// - `offTheMap` when a place it names ("garage", "bike trail") is no level of the station's map:
///   no level name (`levels.txt`), location name or location description names it (nor a level
///   it is part of, or one part of it);
/// - `noRuleMatched` otherwise: every lift of its kind at the station is a candidate.
/// (`noSuchStation`, a unit at no station, is `FacilityJoin`'s; it never reaches a topology.)
///
/// An **alert's outage** (`AlertOutage`) of an elevator or of no stated kind is placed on the
/// elevators ending at a generic node or boarding area it names (`stopReference`) and those
/// whose `facility_id`, `pathway_code` or `signposted_as` is a number its headline gives as
/// "Elevator N" (`id`), both together. Failing those, it is placed by its words (`phrase`) on
/// the elevators whose `signposted_as` or `reversed_signposted_as` its headline or description
/// names (`Pathway.phrasesNamed(in:)`; a deployer's map, `--topology-url`, names CTA's elevators
/// so: "Loop-bound platform elevator"); of two phrases named where one holds the other
/// ("platform elevator", "Loop-bound platform elevator"), only the longer counts, since the
/// shorter is named only as part of it. An elevator alert that places none is `noRuleMatched`,
/// every elevator of the station its candidate; an escalator alert, one of no kind that places
/// none, and an elevator alert at a station without elevator pathways are neither placed nor
/// unplaced (nil): they take out no pathway. Which rule placed it is `OutagePlacementRule`
/// (a phrase placement is `Rule.id` here: a name of the pathway, found in prose).
public enum FacilityPlacement: Hashable, Sendable {
    public enum Rule: String, Hashable, Sendable, CaseIterable {
        case inventory, stopReference, id, node, levels
    }

    public enum Unplaced: String, Hashable, Sendable, CaseIterable {
        case noSuchStation, offTheMap, ambiguous, noRuleMatched
    }

    /// The pathways (positions in the topology's `pathways`) the unit is.
    case placed(Rule, pathways: [Int])
    /// The lifts it could be (positions in `pathways`), in `pathways.txt` order: none off the
    /// map, at no station or without pathways.
    case unplaced(Unplaced, candidates: [Int])

    /// The pathways the unit takes out when out: none unless placed.
    public var pathways: [Int] {
        if case .placed(_, let pathways) = self { return pathways }
        return []
    }

    /// The lifts any one of which may be the unit: none when placed.
    public var candidates: [Int] {
        if case .unplaced(_, let candidates) = self { return candidates }
        return []
    }

    public var unplaced: Unplaced? {
        if case .unplaced(let reason, _) = self { return reason }
        return nil
    }

    public var rule: Rule? {
        if case .placed(let rule, _) = self { return rule }
        return nil
    }

    /// What `health.facilities` counts a unit as.
    public enum Count: String, Hashable, Sendable, CaseIterable {
        case placed, offTheMap, ambiguous, unplaced
    }

    public var count: Count {
        switch unplaced {
        case nil: .placed
        case .offTheMap?: .offTheMap
        case .ambiguous?: .ambiguous
        case .noSuchStation?, .noRuleMatched?: .unplaced
        }
    }

    /// A unit at a station without pathways: nothing to place it on.
    public static let noMap = FacilityPlacement.unplaced(.noRuleMatched, candidates: [])

    /// Where a unit (joined to its station, `FacilityJoin`) is on the station's pathways.
    public static func place(_ unit: FacilityUnit, on topology: StationTopology?) -> FacilityPlacement {
        guard let topology, !topology.pathways.isEmpty else { return noMap }
        let id = unit.unitID
        let lifts = unit.facility == .escalator ? topology.pathways.indices.filter { topology.pathways[$0].mode == .escalator } : topology.elevatorPathways
        let ending = { (nodes: [Int]) -> [Int] in lifts.filter { ends(at: nodes, $0, topology) } }
        let byInventory = topology.pathways.indices.filter { position in unit.inventory.contains(where: topology.pathways[position].isNamed(by:)) }
        if !byInventory.isEmpty { return .placed(.inventory, pathways: byInventory) }
        let byInventoryStop = ending(liftEnds(unit.inventory.flatMap(\.stopIDs), in: topology))
        if !byInventoryStop.isEmpty { return .placed(.stopReference, pathways: byInventoryStop) }
        let byID = topology.pathways.indices.filter { position in
            topology.pathways[position].names(withID: true).contains(id)
        }
        if !byID.isEmpty { return .placed(.id, pathways: byID) }
        let byLiftSuffix = lifts.filter { topology.pathways[$0].isTfLLift(id) }
        if !byLiftSuffix.isEmpty { return .placed(.id, pathways: byLiftSuffix) }
        let byNode = ending(topology.index(of: id).map { [$0] } ?? [])
        if !byNode.isEmpty { return .placed(.node, pathways: byNode) }
        let named = unit.location.levels
        if named.count == 2 {
            let wanted = named.map(FacilityLevels.words)
            let pairs = { (position: Int) in
                [topology.pathwayEnds[position].from, topology.pathwayEnds[position].to].flatMap { levelsOf(topology.locations[$0]) }
            }
            // The same two levels; else, with none, two that could be them.
            var byLevels = lifts.filter { pairs($0).contains { Set($0) == Set(wanted) } }
            if byLevels.isEmpty {
                byLevels = lifts.filter { position in
                    pairs(position).contains { couldBe($0[0], wanted[0]) && couldBe($0[1], wanted[1]) || couldBe($0[0], wanted[1]) && couldBe($0[1], wanted[0]) }
                }
            }
            if byLevels.count == 1 { return .placed(.levels, pathways: byLevels) }
            if byLevels.count > 1 { return .unplaced(.ambiguous, candidates: byLevels) }
        }
        if !named.isEmpty, !named.allSatisfy({ isOnMap($0, topology) }) { return .unplaced(.offTheMap, candidates: []) }
        return .unplaced(.noRuleMatched, candidates: lifts)
    }

    /// Where an alert's outage is on the station's pathways; nil for one that is neither placed
    /// nor unplaced (an escalator alert; one of no kind that names no elevator).
    public static func place(_ outage: AlertOutage, on topology: StationTopology?) -> (placement: FacilityPlacement, placedBy: OutagePlacementRule?)? {
        guard outage.facility != .escalator else { return nil }
        var placed: [Int] = []
        var rule = OutagePlacementRule.id
        if let topology, !topology.pathways.isEmpty {
            // The named generic nodes and boarding areas: an alert names few.
            let named = liftEnds(outage.namedStops, in: topology)
            let numbers = outage.elevatorNumbers
            placed = topology.elevatorPathways.filter { position in
                ends(at: named, position, topology) || (!numbers.isEmpty && topology.pathways[position].names().contains(where: numbers.contains))
            }
            if placed.contains(where: { ends(at: named, $0, topology) }) { rule = .stopReference }
            if placed.isEmpty {
                placed = byPhrase(outage, topology)
                rule = .phrase
            }
        }
        if !placed.isEmpty { return (.placed(rule == .stopReference ? .stopReference : .id, pathways: placed), rule) }
        // An elevator alert that names none of the station's elevators may be any of them (at a
        // station with none, it is nothing to place).
        let candidates = outage.facility == .elevator ? topology?.elevatorPathways ?? [] : []
        return candidates.isEmpty ? nil : (.unplaced(.noRuleMatched, candidates: candidates), nil)
    }

    /// The elevators whose signposted phrase the alert's headline or description names, a phrase
    /// held in a longer one also named left out.
    private static func byPhrase(_ outage: AlertOutage, _ topology: StationTopology) -> [Int] {
        let named = topology.elevatorPathways.map { position in
            (position, outage.prose.flatMap { topology.pathways[position].phrasesNamed(in: $0) })
        }
        let phrases = named.flatMap(\.1)
        let longest = phrases.filter { phrase in
            !phrases.contains { $0.count > phrase.count && AlertWords.contains($0, phrase: phrase) }
        }
        return named.filter { $0.1.contains(where: longest.contains) }.map(\.0)
    }

    /// What a unit is: its stated kind, or, of no stated kind, that of the pathways it is placed on
    /// (an `other` unit on an elevator is an elevator). The one decision of a unit's kind: the
    /// verdict counts it and the `facilities` answer shows it.
    public func kind(of unit: FacilityUnit, on topology: StationTopology?) -> FacilityKind {
        guard unit.facility == .other, let topology, let first = pathways.first else { return unit.facility }
        switch topology.pathways[first].mode {
        case .elevator: return .elevator
        case .escalator: return .escalator
        default: return .other
        }
    }

    /// The generic nodes and boarding areas among `ids`, as positions: where one lift's way can
    /// be named by its end (a platform or a station is where many ways end, not one unit's).
    private static func liftEnds(_ ids: [String], in topology: StationTopology) -> [Int] {
        ids.compactMap { id in
            guard let index = topology.index(of: id) else { return nil }
            switch topology.locations[index].role {
            case .genericNode, .boardingArea: return index
            default: return nil
            }
        }
    }

    /// Whether the pathway at `position` ends at one of `nodes`.
    private static func ends(at nodes: [Int], _ position: Int, _ topology: StationTopology) -> Bool {
        nodes.contains(topology.pathwayEnds[position].from) || nodes.contains(topology.pathwayEnds[position].to)
    }

    /// The level pairs a location's name and description say (`FacilityLevels`), each level its words.
    private static func levelsOf(_ location: StationTopology.Location) -> [[Set<String>]] {
        [location.name, location.description].map { FacilityLevels.levels($0).map(FacilityLevels.words) }.filter { $0.count == 2 }
    }

    /// Whether two levels could be one: the words of one hold all of the other's ("platform",
    /// "Silver Line Platform").
    private static func couldBe(_ lhs: Set<String>, _ rhs: Set<String>) -> Bool {
        !lhs.isEmpty && !rhs.isEmpty && (lhs.isSubset(of: rhs) || rhs.isSubset(of: lhs))
    }

    /// Whether a place a unit names could be a level of the station: a level's name
    /// ("Street/Mezzanine"), or a level or place a location's name or description names, that
    /// could be it (`couldBe`). A compass word alone ("East elevator") names a side, not a place, and
    /// is always on the map.
    static func isOnMap(_ place: String, _ topology: StationTopology) -> Bool {
        let place = FacilityLevels.words(place)
        guard !place.isEmpty, !place.isSubset(of: sideWords) else { return true }
        let levels = topology.levelNames + topology.locations.flatMap { FacilityLevels.levels($0.name) + FacilityLevels.levels($0.description) }
        return levels.contains { couldBe(FacilityLevels.words($0), place) }
    }

    private static let sideWords: Set<String> = ["north", "south", "east", "west", "side", "center", "central", "upper", "lower", "main"]
}
