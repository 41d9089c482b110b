/// One row of GTFS `levels.txt`: a floor of a station, which its locations name by `level_id`.
public struct Level: Hashable, Sendable {
    public var id: String
    /// Ground is 0, above positive, below negative; fractions for mezzanines.
    public var index: Double
    public var name: String?

    public init(id: String, index: Double, name: String? = nil) {
        self.id = id
        self.index = index
        self.name = name
    }
}
