/// What a stations source decoded: its platforms, and what only GTFS says — entrances, and
/// whether the lines serving each platform are known at all.
public struct DecodedStations: Sendable, Equatable {
    public var platforms: [Platform]
    public var entrances: [Entrance]
    /// False for GTFS `stops.txt` on its own: it names no lines, and none are guessed from names.
    public var linesKnown: Bool

    public init(platforms: [Platform], entrances: [Entrance] = [], linesKnown: Bool = true) {
        self.platforms = platforms
        self.entrances = entrances
        self.linesKnown = linesKnown
    }
}
