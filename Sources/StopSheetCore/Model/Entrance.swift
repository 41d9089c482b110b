/// A way into a station (GTFS `location_type=2`), listed in `station` detail with its own
/// step-free value. Entrances do not enter the station's aggregate: the spec's sentence is about
/// the platforms, and an entrance with stairs beside one with an elevator says nothing new.
public struct Entrance: Hashable, Sendable {
    public var id: String
    public var stationID: String
    public var name: String
    /// `true` step-free, `false` not, `nil` unknown (GTFS `wheelchair_boarding` after inheritance).
    public var stepFree: Bool?

    public init(id: String, stationID: String, name: String, stepFree: Bool?) {
        self.id = id
        self.stationID = stationID
        self.name = name
        self.stepFree = stepFree
    }
}
