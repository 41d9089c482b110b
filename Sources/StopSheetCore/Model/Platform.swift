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

    public init(stopID: String, stationID: String, stationName: String, direction: String? = nil, routes: [RouteID], stepFree: Bool?) {
        self.stopID = stopID
        self.stationID = stationID
        self.stationName = stationName
        self.direction = direction?.isEmpty == false ? direction : nil
        self.routes = routes
        self.stepFree = stepFree
    }
}
