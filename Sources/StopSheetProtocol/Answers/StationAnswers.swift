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

        public enum CodingKeys: String, AnswerKey { case stationId, stationName, routes, lines, stepFree, partial, stepFreeFrom, stepFreeNow }

        public static let summary = "A station: id, name, routes, step-free status, and step-free access now in one word."

        public init(stationId: String, stationName: String, routes: [String], lines: [Line]?, stepFree: StepFree, partial: Bool,
                    stepFreeFrom: StepFreeBasis?, stepFreeNow: StepFreeVerdict) {
            (self.stationId, self.stationName, self.routes, self.lines) = (stationId, stationName, routes, lines)
            (self.stepFree, self.partial, self.stepFreeFrom, self.stepFreeNow) = (stepFree, partial, stepFreeFrom, stepFreeNow)
        }
    }

    /// `station`'s result: the summary's members, then these, in one object. Its own members, not
    /// a `StationSummary` inside it, so that its `Codable` is synthesised like every answer's;
    /// `summary` reads them back as one, and stops compiling ("missing argument") when the
    /// summary gains a member this type has not.
    public struct Station: AnswerObject {
        public var stationId: String
        public var stationName: String
        public var routes: [String]
        public var lines: [Line]?
        public var stepFree: StepFree
        public var partial: Bool
        public var stepFreeFrom: StepFreeBasis?
        public var stepFreeNow: StepFreeVerdict
        public var platforms: [Platform]
        public var entrances: [Entrance]
        public var advisories: [Advisory]
        /// Its sheet's `accessibilityButton.now`.
        public var now: StepFreeNow

        public enum CodingKeys: String, AnswerKey {
            case stationId, stationName, routes, lines, stepFree, partial, stepFreeFrom, stepFreeNow, platforms, entrances, advisories, now
        }

        public static let summary = "A station's detail: the summary's members, platforms, entrances, advisories and step-free access now."

        public init(summary: StationSummary, platforms: [Platform], entrances: [Entrance], advisories: [Advisory], now: StepFreeNow) {
            (stationId, stationName, routes, lines) = (summary.stationId, summary.stationName, summary.routes, summary.lines)
            (stepFree, partial, stepFreeFrom, stepFreeNow) = (summary.stepFree, summary.partial, summary.stepFreeFrom, summary.stepFreeNow)
            (self.platforms, self.entrances, self.advisories, self.now) = (platforms, entrances, advisories, now)
        }

        /// The summary's members, as the `stations` entry of this station.
        public var summary: StationSummary {
            StationSummary(stationId: stationId, stationName: stationName, routes: routes, lines: lines, stepFree: stepFree, partial: partial,
                           stepFreeFrom: stepFreeFrom, stepFreeNow: stepFreeNow)
        }
    }

    /// A line as GTFS describes it; `null` where the feed says nothing.
    public struct Line: AnswerObject {
        public var id: String
        public var shortName: Nullable<String>
        public var longName: Nullable<String>
        public var color: Nullable<String>
        public var routeType: Int

        public enum CodingKeys: String, AnswerKey { case id, shortName, longName, color, routeType }

        public static let summary = "A line: GTFS route_short_name, route_long_name, route_color, route_type."

        public init(id: String, shortName: String?, longName: String?, color: String?, routeType: Int) {
            (self.id, self.shortName, self.longName, self.color, self.routeType) = (id, Nullable(shortName), Nullable(longName), Nullable(color), routeType)
        }
    }

    public struct Platform: AnswerObject {
        public var stopId: String
        public var direction: Nullable<String>
        public var routes: [String]
        public var stepFree: Nullable<Bool>

        public enum CodingKeys: String, AnswerKey { case stopId, direction, routes, stepFree }

        public static let summary = "A platform of a station."

        public init(stopId: String, direction: String?, routes: [String], stepFree: Bool?) {
            (self.stopId, self.direction, self.routes, self.stepFree) = (stopId, Nullable(direction), routes, Nullable(stepFree))
        }
    }

    public struct Entrance: AnswerObject {
        public var id: String
        public var name: String
        public var stepFree: Nullable<Bool>

        public enum CodingKeys: String, AnswerKey { case id, name, stepFree }

        public static let summary = "An entrance of a station (GTFS location_type=2)."

        public init(id: String, name: String, stepFree: Bool?) {
            (self.id, self.name, self.stepFree) = (id, name, Nullable(stepFree))
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
