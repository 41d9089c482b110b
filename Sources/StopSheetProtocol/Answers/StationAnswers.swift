extension Answer {
    /// One entry of `stations`, and the first members of a `station` detail. `lines` only when
    /// the source describes its lines (a GTFS feed).
    public struct StationSummary: AnswerObject {
        public var stationId: String
        public var stationName: String
        public var routes: [String]
        public var lines: [Line]?
        public var stepFree: StepFree
        public var partial: Bool
        /// Where `stepFree` came from, since protocol 2.2: `stations` or `pathways` (the map).
        public var stepFreeFrom: StepFreeBasis?
        /// The word of its sheet's `accessibilityButton.now.stepFree`.
        public var stepFreeNow: StepFreeVerdict

        public enum CodingKeys: String, AnswerKey {
            case stationId, stationName, routes, lines, stepFree, partial, stepFreeFrom, stepFreeNow
            public static let omittable: Set<Self> = [.lines, .stepFreeFrom]
        }

        public static let summary = "A station: id, name, routes, step-free status, and step-free access now in one word."

        public init(stationId: String, stationName: String, routes: [String], lines: [Line]?, stepFree: StepFree, partial: Bool,
                    stepFreeFrom: StepFreeBasis?, stepFreeNow: StepFreeVerdict) {
            (self.stationId, self.stationName, self.routes, self.lines) = (stationId, stationName, routes, lines)
            (self.stepFree, self.partial, self.stepFreeFrom, self.stepFreeNow) = (stepFree, partial, stepFreeFrom, stepFreeNow)
        }
    }

    /// `station`'s result: the summary's members, then these.
    public struct Station: AnswerObject {
        public var summary: StationSummary
        public var platforms: [Platform]
        public var entrances: [Entrance]
        public var advisories: [Advisory]
        /// Its sheet's `accessibilityButton.now`.
        public var now: StepFreeNow

        public enum CodingKeys: String, AnswerKey { case platforms, entrances, advisories, now }

        /// The summary's members come first, in the same object.
        public typealias Leading = StationSummary
        public static let summary = "A station's detail: the summary's members, platforms, entrances, advisories and step-free access now."

        public init(summary: StationSummary, platforms: [Platform], entrances: [Entrance], advisories: [Advisory], now: StepFreeNow) {
            (self.summary, self.platforms, self.entrances, self.advisories, self.now) = (summary, platforms, entrances, advisories, now)
        }

        public init(from decoder: any Decoder) throws {
            summary = try StationSummary(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            platforms = try container.decode([Platform].self, forKey: .platforms)
            entrances = try container.decode([Entrance].self, forKey: .entrances)
            advisories = try container.decode([Advisory].self, forKey: .advisories)
            now = try container.decode(StepFreeNow.self, forKey: .now)
        }

        /// The summary's members, then these, in one object.
        public func encode(to encoder: any Encoder) throws {
            try summary.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(platforms, forKey: .platforms)
            try container.encode(entrances, forKey: .entrances)
            try container.encode(advisories, forKey: .advisories)
            try container.encode(now, forKey: .now)
        }
    }

    /// A line as GTFS describes it; `null` where the feed says nothing.
    public struct Line: AnswerObject {
        public var id: String
        public var shortName: String?
        public var longName: String?
        public var color: String?
        public var routeType: Int

        public enum CodingKeys: String, AnswerKey { case id, shortName, longName, color, routeType }

        public static let summary = "A line: GTFS route_short_name, route_long_name, route_color, route_type."

        public init(id: String, shortName: String?, longName: String?, color: String?, routeType: Int) {
            (self.id, self.shortName, self.longName, self.color, self.routeType) = (id, shortName, longName, color, routeType)
        }
    }

    public struct Platform: AnswerObject {
        public var stopId: String
        public var direction: String?
        public var routes: [String]
        public var stepFree: Bool?

        public enum CodingKeys: String, AnswerKey { case stopId, direction, routes, stepFree }

        public static let summary = "A platform of a station."

        public init(stopId: String, direction: String?, routes: [String], stepFree: Bool?) {
            (self.stopId, self.direction, self.routes, self.stepFree) = (stopId, direction, routes, stepFree)
        }
    }

    public struct Entrance: AnswerObject {
        public var id: String
        public var name: String
        public var stepFree: Bool?

        public enum CodingKeys: String, AnswerKey { case id, name, stepFree }

        public static let summary = "An entrance of a station (GTFS location_type=2)."

        public init(id: String, name: String, stepFree: Bool?) {
            (self.id, self.name, self.stepFree) = (id, name, stepFree)
        }
    }

    /// `stations`' result.
    public struct Stations: AnswerObject {
        public var count: Int
        public var stations: [StationSummary]

        public enum CodingKeys: String, AnswerKey { case count, stations }

        public static let summary = "Every station, by name (collated in the feed's language), without platforms."

        public init(count: Int, stations: [StationSummary]) {
            (self.count, self.stations) = (count, stations)
        }
    }
}
