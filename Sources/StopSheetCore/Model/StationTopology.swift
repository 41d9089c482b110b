/// A station's locations and the pathways between them (GTFS `pathways.txt`), as a graph that
/// answers which platforms a wheelchair can reach from the street and leave to it.
///
/// - Nodes are the station's entrances (`location_type` 2), platforms (0), generic nodes (3) and
///   boarding areas (4). Edges are pathways: `from → to`, and `to → from` too when the pathway is
///   bidirectional. Only step-free pathways (`PathwayMode.isStepFree`) are edges at all.
/// - Street ends are the entrances whose own `wheelchair_boarding` is not 2 (not inherited: an
///   entrance the feed marks as stepped is no step-free start or end, whatever its station says),
///   and the station's generic node `<station id>-Outside` (`streetNodeSuffix`): TfL's map has no
///   entrances, and that node is each station's street. A station with neither, not even a
///   stepped entrance, has no street on its map (`hasStreet`): its pathways cannot say what is
///   step-free from it.
/// - A platform has step-free **entry** when a street end reaches it or one of its boarding areas,
///   and **exit** when it or one of its boarding areas reaches a street end.
/// - A platform's **ways** (issue 51) are the street ends that reach it, or that it reaches, with
///   every pathway open, each walked from alone: which of them still does so with some pathways
///   closed is `ways(closedPathways:)`.
///
/// Immutable; built once per station load. The answer with nothing closed is computed here once,
/// so a station without an outage costs nothing more on each alert refresh. Equality is the
/// synthesised one: every other stored property is computed from the station's id, locations,
/// pathways and levels, so two maps are equal exactly when those are.
public struct StationTopology: Sendable, Equatable {
    public enum Role: Hashable, Sendable {
        /// `streetEnd` is false when the entrance's own `wheelchair_boarding` is 2.
        case entrance(streetEnd: Bool)
        case platform
        case genericNode
        /// A boarding area belongs to the platform that is its parent.
        case boardingArea(platformID: String)
    }

    public struct Location: Hashable, Sendable {
        public var id: String
        public var role: Role
        /// `stop_name`, trimmed; may be empty (generic nodes rarely have one).
        public var name: String
        /// `stop_desc`, trimmed: where WMATA's lift end nodes say their levels ("Top of Elevator
        /// Between Street and  Platform"), their `stop_name` being the station's.
        public var description: String
        public var levelID: String?

        public init(id: String, role: Role, name: String = "", description: String = "", levelID: String? = nil) {
            self.id = id
            self.role = role
            self.name = name
            self.description = description
            self.levelID = levelID
        }
    }

    /// Step-free entry and exit of one platform.
    public struct Access: Hashable, Sendable {
        public var entry: Bool
        public var exit: Bool

        public init(entry: Bool, exit: Bool) {
            self.entry = entry
            self.exit = exit
        }
    }

    /// A pathway's ends, as positions in `locations`.
    public struct PathwayEnds: Hashable, Sendable {
        public let from: Int
        public let to: Int
    }

    /// A step-free edge of the graph: the node it leads to and the pathway it takes.
    private struct Edge: Hashable, Sendable {
        let node: Int
        let pathway: Int
    }

    /// The id of a station's street node, after the station's id: TfL's `HUBABW-Outside`.
    public static let streetNodeSuffix = "-Outside"

    public let stationID: String
    /// The `level_name`s of the levels its locations are on (`levels.txt`), each once.
    public let levelNames: [String]
    /// In the order given (the feed's `stops.txt` order).
    public let locations: [Location]
    /// The pathways between `locations`, in the order given; one naming a stop that is not one
    /// of `locations` is left out (the decoder makes that a notice).
    public let pathways: [Pathway]
    /// The platforms' ids and names in `locations` order, and their access with every pathway open.
    public let platformIDs: [String]
    public let platformNames: [String]
    public let openAccess: [Access]
    /// The street ends' positions in `locations`, in `locations` order.
    public let streetEnds: [Int]
    /// Each platform's ways (in `platformIDs` order): the positions in `streetEnds` of the street
    /// ends it is entered from or left to with every pathway open, in `streetEnds` order.
    public let openWays: [[Int]]
    /// Each platform's ways' access with every pathway open, aligned with `openWays`.
    public let openWayAccess: [[Access]]

    private let indexByID: [String: Int]
    /// The elevators' positions in `pathways`, and each pathway's ends as positions in `locations`.
    public let elevatorPathways: [Int]
    public let pathwayEnds: [PathwayEnds]
    /// Step-free edges by their start (`forward`) and by their end (`backward`).
    private let forward: Edges
    private let backward: Edges
    /// For each platform (by position in `platformIDs`), its node and its boarding areas' nodes.
    private let platformNodes: [[Int]]

    public init(stationID: String, locations: [Location], pathways: [Pathway], levelNames: [String] = []) {
        self.stationID = stationID
        self.levelNames = levelNames
        var byID: [String: Int] = [:]
        var unique: [Location] = []
        for location in locations where byID[location.id] == nil {
            byID[location.id] = unique.count
            unique.append(location)
        }
        self.locations = unique
        indexByID = byID
        let kept = pathways.filter { byID[$0.fromStopID] != nil && byID[$0.toStopID] != nil }
        self.pathways = kept
        var forward = Edges(repeating: [], count: unique.count)
        var backward = forward
        for (position, pathway) in kept.enumerated() where pathway.mode.isStepFree {
            let from = byID[pathway.fromStopID]!, to = byID[pathway.toStopID]!
            forward[from].append(Edge(node: to, pathway: position))
            backward[to].append(Edge(node: from, pathway: position))
            if pathway.isBidirectional {
                forward[to].append(Edge(node: from, pathway: position))
                backward[from].append(Edge(node: to, pathway: position))
            }
        }
        self.forward = forward
        self.backward = backward
        elevatorPathways = kept.indices.filter { kept[$0].mode == .elevator }
        pathwayEnds = kept.map { PathwayEnds(from: byID[$0.fromStopID]!, to: byID[$0.toStopID]!) }
        let streetNode = stationID + Self.streetNodeSuffix
        streetEnds = unique.indices.filter {
            unique[$0].role == .entrance(streetEnd: true) || (unique[$0].role == .genericNode && unique[$0].id == streetNode)
        }
        hasStreet = !streetEnds.isEmpty || unique.contains { $0.role == .entrance(streetEnd: false) }
        var platformIDs: [String] = []
        var platformPosition: [String: Int] = [:]
        var platformNodes: [[Int]] = []
        for (index, location) in unique.enumerated() where location.role == .platform {
            platformPosition[location.id] = platformIDs.count
            platformIDs.append(location.id)
            platformNodes.append([index])
        }
        for (index, location) in unique.enumerated() {
            if case .boardingArea(let platform) = location.role, let position = platformPosition[platform] {
                platformNodes[position].append(index)
            }
        }
        self.platformIDs = platformIDs
        platformNames = platformIDs.map { unique[byID[$0]!].name }
        self.platformNodes = platformNodes
        openAccess = Self.access(platformNodes, streetEnds, forward, backward, pathwayCount: kept.count, closed: [])
        let everyWay = Self.wayAccess(platformNodes, streetEnds, forward, backward, pathwayCount: kept.count, closed: [])
        openWays = everyWay.map { access in access.indices.filter { access[$0].entry || access[$0].exit } }
        openWayAccess = zip(everyWay, openWays).map { access, ways in ways.map { access[$0] } }
    }

    /// Whether the map knows the station's street: an entrance (stepped or not) or its street node.
    public let hasStreet: Bool

    public func location(_ id: String) -> Location? { indexByID[id].map { locations[$0] } }

    /// A location's position in `locations`.
    public func index(of id: String) -> Int? { indexByID[id] }

    /// Each platform's access (in `platformIDs` order) with the pathways at `closedPathways`
    /// (positions in `pathways`) taken out.
    public func access(closedPathways: Set<Int>) -> [Access] {
        closedPathways.isEmpty ? openAccess
            : Self.access(platformNodes, streetEnds, forward, backward, pathwayCount: pathways.count, closed: closedPathways)
    }

    /// Each platform's ways' access (aligned with `openWays`) with the pathways at
    /// `closedPathways` taken out: each street end walked from alone.
    public func ways(closedPathways: Set<Int>) -> [[Access]] {
        guard !closedPathways.isEmpty else { return openWayAccess }
        let every = Self.wayAccess(platformNodes, streetEnds, forward, backward, pathwayCount: pathways.count, closed: closedPathways)
        return zip(every, openWays).map { access, ways in ways.map { access[$0] } }
    }

    private typealias Edges = [[Edge]]

    private static func access(_ platformNodes: [[Int]], _ streetEnds: [Int], _ forward: Edges, _ backward: Edges, pathwayCount: Int,
                               closed: Set<Int>) -> [Access] {
        // A mask, not the set: every edge of both walks is checked against it.
        var mask = [Bool](repeating: false, count: pathwayCount)
        for position in closed where position < pathwayCount { mask[position] = true }
        let entered = reach(from: streetEnds, over: forward, closed: mask)
        let left = reach(from: streetEnds, over: backward, closed: mask)
        return platformNodes.map { nodes in
            Access(entry: nodes.contains { entered[$0] }, exit: nodes.contains { left[$0] })
        }
    }

    /// For each platform, its access from and to each street end alone (in `streetEnds` order).
    private static func wayAccess(_ platformNodes: [[Int]], _ streetEnds: [Int], _ forward: Edges, _ backward: Edges, pathwayCount: Int,
                                  closed: Set<Int>) -> [[Access]] {
        var mask = [Bool](repeating: false, count: pathwayCount)
        for position in closed where position < pathwayCount { mask[position] = true }
        var result = platformNodes.map { _ in [Access]() }
        for end in streetEnds {
            let entered = reach(from: [end], over: forward, closed: mask)
            let left = reach(from: [end], over: backward, closed: mask)
            for (platform, nodes) in platformNodes.enumerated() {
                result[platform].append(Access(entry: nodes.contains { entered[$0] }, exit: nodes.contains { left[$0] }))
            }
        }
        return result
    }

    /// Every node some start reaches over the edges not closed.
    private static func reach(from starts: [Int], over edges: Edges, closed: [Bool]) -> [Bool] {
        var reached = [Bool](repeating: false, count: edges.count)
        var pending = starts
        for start in starts { reached[start] = true }
        while let node = pending.popLast() {
            for edge in edges[node] where !reached[edge.node] && !closed[edge.pathway] {
                reached[edge.node] = true
                pending.append(edge.node)
            }
        }
        return reached
    }
}
