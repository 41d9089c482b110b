import StopSheetCore

extension Answer {
    /// `stationMap`'s result (since protocol 2.3): a station's map (its locations, pathways and
    /// each platform's ways), or `null` and a `reason` sentence at a station without one.
    public struct StationMap: AnswerObject {
        public var stationId: String
        public var map: Nullable<StationMapDrawing>
        /// Why there is no map, in a sentence; left out when there is one.
        public var reason: String?

        public enum CodingKeys: String, AnswerKey { case stationId, map, reason }

        public static let summary = "A station's map: its locations, pathways, what is out, and each platform's ways; null without one."

        public init(stationId: String, map: StationMapDrawing?, reason: String?) {
            (self.stationId, self.map, self.reason) = (stationId, Nullable(map), reason)
        }
    }

    /// The map itself: what `stopsheetctl map` draws.
    public struct StationMapDrawing: AnswerObject {
        /// In the feed's `stops.txt` order.
        public var locations: [MapLocation]
        /// In the feed's `pathways.txt` order.
        public var pathways: [MapPathway]
        /// As in the sheet's `now.platforms`: entry, exit and `via` now.
        public var platforms: [PlatformAccess]

        public enum CodingKeys: String, AnswerKey { case locations, pathways, platforms }

        public static let summary = "A station's locations, pathways and platforms' ways."

        public init(locations: [MapLocation], pathways: [MapPathway], platforms: [PlatformAccess]) {
            (self.locations, self.pathways, self.platforms) = (locations, pathways, platforms)
        }
    }

    /// What a location is on the map: a closed set.
    public enum MapRole: String, AnswerWord {
        /// An entrance (`location_type` 2), step-free or not.
        case entrance
        /// The station's street node (TfL's `<station>-Outside`).
        case street
        /// Any other generic node (3).
        case node
        case boardingArea
        case platform
    }

    /// A pathway's `pathway_mode`, in words.
    public enum MapPathwayMode: String, AnswerWord {
        case walkway, stairs, movingSidewalk, escalator, elevator, fareGate, exitGate
    }

    public struct MapLocation: AnswerObject {
        public var id: String
        public var name: String
        public var role: MapRole
        /// The location's `level_id`; null when the feed gives none.
        public var level: Nullable<String>

        public enum CodingKeys: String, AnswerKey { case id, name, role, level }

        public static let summary = "A location of a station's map: its id, name, role and level."

        public init(id: String, name: String, role: MapRole, level: String?) {
            (self.id, self.name, self.role, self.level) = (id, name, role, Nullable(level))
        }
    }

    public struct MapPathway: AnswerObject {
        public var id: String
        public var from: String
        public var to: String
        public var mode: MapPathwayMode
        public var bidirectional: Bool
        /// What alerts and lift-status units may call it by.
        public var names: PathwayNames
        /// The outages that take it out now.
        public var out: [OutageReference]
        /// The unplaced outages it may be (any one of their candidates may be out).
        public var candidateOf: [OutageReference]

        public enum CodingKeys: String, AnswerKey { case id, from, to, mode, bidirectional, names, out, candidateOf }

        public static let summary = "A pathway of a station's map, its names, and the outages that take it out or may."

        public init(id: String, from: String, to: String, mode: MapPathwayMode, bidirectional: Bool, names: PathwayNames,
                    out: [OutageReference], candidateOf: [OutageReference]) {
            (self.id, self.from, self.to, self.mode, self.bidirectional) = (id, from, to, mode, bidirectional)
            (self.names, self.out, self.candidateOf) = (names, out, candidateOf)
        }
    }

    /// A pathway's names, as the feed gives them (`null` when it does not).
    public struct PathwayNames: AnswerObject {
        public var facilityId: Nullable<String>
        public var pathwayCode: Nullable<String>
        public var signpostedAs: Nullable<String>
        public var reversedSignpostedAs: Nullable<String>

        public enum CodingKeys: String, AnswerKey { case facilityId, pathwayCode, signpostedAs, reversedSignpostedAs }

        public static let summary = "A pathway's facility_id, pathway_code, signposted_as and reversed_signposted_as."

        public init(facilityId: String?, pathwayCode: String?, signpostedAs: String?, reversedSignpostedAs: String?) {
            (self.facilityId, self.pathwayCode, self.signpostedAs, self.reversedSignpostedAs) = (Nullable(facilityId), Nullable(pathwayCode), Nullable(signpostedAs), Nullable(reversedSignpostedAs))
        }
    }

    /// An outage of the sheet's `now.outages`: an alert's id (`source` `alerts`) or a lift-status unit's (`facilities`).
    public struct OutageReference: AnswerObject {
        public var source: OutageSource
        public var id: String

        public enum CodingKeys: String, AnswerKey { case source, id }

        public static let summary = "An outage: where it was heard and its alert's or unit's id."

        public init(source: OutageSource, id: String) { (self.source, self.id) = (source, id) }
    }
}
