/// One platform (a CTA stop id, `3xxxx`) as a stops source describes it. Decoders produce these;
/// `StationDirectory` groups them into stations.
public struct Platform: Hashable, Sendable {
    public var stopID: String
    public var stationID: String
    public var stationName: String
    /// Direction of travel (`N`, `S`, `E`, `W`) when the source gives one (an empty one is none).
    public var direction: String?
    public var routes: [RouteID]
    /// `true` step-free, `false` not step-free, `nil` unknown.
    public var stepFree: Bool?
    /// The platform's own name when the source gives one: CTA's L stops' `STOP_NAME`, which says
    /// the direction it serves (`Western (Loop-bound)`); a GTFS `stop_name`.
    public var name: String?
    /// The headsigns of the trips that stop here (GTFS `trips.txt`), where its trains go, in
    /// first-seen order; empty when the source has no trips.
    public var headsigns: [String]

    public init(stopID: String, stationID: String, stationName: String, direction: String? = nil, routes: [RouteID], stepFree: Bool?,
                name: String? = nil, headsigns: [String] = []) {
        self.stopID = stopID
        self.stationID = stationID
        self.stationName = stationName
        self.direction = direction?.isEmpty == false ? direction : nil
        self.routes = routes
        self.stepFree = stepFree
        self.name = name.map(UpstreamText.trimmed).flatMap { $0.isEmpty ? nil : $0 }
        self.headsigns = headsigns
    }
}
