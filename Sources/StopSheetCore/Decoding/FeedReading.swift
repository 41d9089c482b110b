/// How the daemon reads its upstreams, as configured: which GTFS-realtime translation to pick
/// (`--language`), which GTFS `route_type`s are trains (`--train-route-types`) and the agency name
/// the "none" sentence gives (`--agency-name`, else the feed's).
public struct FeedReading: Sendable, Equatable {
    public var language: String
    public var trainRouteTypes: TrainRouteTypes
    public var agencyName: String?

    public init(language: String = "en", trainRouteTypes: TrainRouteTypes = .rail, agencyName: String? = nil) {
        self.language = language
        self.trainRouteTypes = trainRouteTypes
        self.agencyName = agencyName
    }
}
