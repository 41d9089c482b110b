/// What a stations source decoded: its platforms, and what only GTFS says — entrances, the
/// feed's lines and agencies, and whether the lines serving each platform are known at all.
public struct DecodedStations: Sendable, Equatable {
    public var platforms: [Platform]
    public var entrances: [Entrance]
    /// False for GTFS `stops.txt` on its own: it names no lines, and none are guessed from names.
    public var linesKnown: Bool
    /// The train lines of a GTFS feed's `routes.txt`; empty for CTA's own formats.
    public var lines: [Line]
    /// `agency.txt`'s agencies; `Agency.cta` for CTA's own formats; empty when nothing says
    /// (a `stops.txt` of another agency, alone).
    public var agencies: [Agency]
    /// GTFS generic nodes and boarding areas by stop id → their station's id: never platforms,
    /// but an alert naming one is about its station.
    public var stopsWithin: [String: String]
    /// The language of the names (GTFS `feed_lang`, else `agency_lang`); nil when nothing says.
    public var language: String?
    /// The rows and values a GTFS feed had to skip.
    public var notices: FeedNotices
    /// The GTFS tables whose absence leaves the lines unknown (`trips.txt`, `stop_times.txt`);
    /// empty for `stops.txt` alone and when the lines are known.
    public var tablesMissing: [String]
    /// GTFS `pathways.txt`: each station's topology, by station id (none without the table).
    public var topologies: [String: StationTopology] = [:]
    /// The deployer's map applied (`DeployerMap.apply(to:)`), kept so that the next station load
    /// can apply it again when its own fetch brings none.
    public var deployerMap: DeployerMap?
    /// Each stop's coordinate (a station, platform, entrance, node or boarding area), by stop id,
    /// where the source gives one: the stations' positions (`StationPositions`).
    public var positions: [String: Coordinate] = [:]

    public init(platforms: [Platform], entrances: [Entrance] = [], linesKnown: Bool = true, lines: [Line] = [], agencies: [Agency] = [.cta],
                stopsWithin: [String: String] = [:], language: String? = nil, notices: FeedNotices = .init(), tablesMissing: [String] = []) {
        self.language = language
        self.stopsWithin = stopsWithin
        self.notices = notices
        self.tablesMissing = tablesMissing
        self.platforms = platforms
        self.entrances = entrances
        self.linesKnown = linesKnown
        self.lines = lines
        self.agencies = agencies
    }
}
