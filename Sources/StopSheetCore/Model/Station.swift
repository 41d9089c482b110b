/// A train station (a CTA map id, `4xxxx`, or a GTFS station's `stop_id`) with its platforms.
public struct Station: Hashable, Sendable {
    public var id: String
    public var name: String
    public var platforms: [Platform]
    /// Union of the platforms' routes, in CTA line order, then by id.
    public var routes: [RouteID]
    public var stepFree: StepFreeStatus
    /// True when the platforms do not all report the same step-free value.
    public var partial: Bool
    /// Where `stepFree` came from: the station data (`stations`), or the station's map
    /// (`pathways`) where the data gives none (`StationDirectory.stepFreeFromMap`).
    public var stepFreeFrom: StepFreeNow.Basis = .stations
    /// The station's entrances, when the source lists them (GTFS); empty otherwise.
    public var entrances: [Entrance]
    /// What a GTFS feed's `routes.txt` says of each of `routes`, in that order; empty for CTA's
    /// own formats, which give ids only.
    public var lines: [Line]
    /// The agency the "none" sentence names (`Agency.spokenName`, or `--agency-name`).
    public var agencyName: String
    /// The GTFS `agency_id` of the station's lines, when the feed gives one.
    public var agencyID: String?

    public init(id: String, name: String, platforms: [Platform], entrances: [Entrance] = [], lines: [Line] = [],
                agencyName: String = Agency.cta.name, agencyID: String? = nil) {
        self.id = id
        self.name = name
        self.platforms = platforms
        self.entrances = entrances
        self.routes = Set(platforms.flatMap(\.routes)).sorted()
        self.stepFree = StepFreeStatus.aggregate(platforms.map(\.stepFree))
        self.partial = StepFreeStatus.isPartial(platforms.map(\.stepFree))
        self.lines = lines
        self.agencyName = agencyName
        self.agencyID = agencyID
    }

    /// The GTFS `route_type`s of the station's lines; CTA's own formats describe the 'L', a metro.
    public var routeTypes: [Int] { lines.isEmpty ? [TrainRouteTypes.metro] : lines.map(\.routeType) }
}
