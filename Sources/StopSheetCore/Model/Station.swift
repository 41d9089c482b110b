/// A CTA train station (map id, `4xxxx`) with its platforms.
public struct Station: Hashable, Sendable {
    public var id: String
    public var name: String
    public var platforms: [Platform]
    /// Union of the platforms' routes, in CTA line order.
    public var routes: [RouteID]
    public var stepFree: StepFreeStatus
    /// True when the platforms do not all report the same step-free value.
    public var partial: Bool
    /// The station's entrances, when the source lists them (GTFS); empty otherwise.
    public var entrances: [Entrance]

    public init(id: String, name: String, platforms: [Platform], entrances: [Entrance] = []) {
        self.id = id
        self.name = name
        self.platforms = platforms
        self.entrances = entrances
        self.routes = Set(platforms.flatMap(\.routes)).sorted()
        self.stepFree = StepFreeStatus.aggregate(platforms.map(\.stepFree))
        self.partial = StepFreeStatus.isPartial(platforms.map(\.stepFree))
    }
}
