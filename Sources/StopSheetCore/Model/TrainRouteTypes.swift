/// Which GTFS `route_type`s are trains: the lines whose stations get a train stop sheet, and the
/// GTFS-realtime selectors that reach them. By default every rail mode of the GTFS reference and
/// of the extended route types — tram and light rail (0), subway and metro (1), rail (2), cable
/// tram (5), funicular (7), monorail (12), railway services (100–199), urban railway (400–499),
/// tram services (900–999) — and not bus (3, 700–799), trolleybus (11, 800–899), ferry (4,
/// 1000–1099) or aerial lift (6, 1300–1399). `--train-route-types` sets another list.
public struct TrainRouteTypes: Hashable, Sendable, CustomStringConvertible {
    public let ranges: [ClosedRange<Int>]

    public init(_ ranges: [ClosedRange<Int>]) { self.ranges = ranges }

    public static let rail = TrainRouteTypes([0...2, 5...5, 7...7, 12...12, 100...199, 400...499, 900...999])

    /// The subway and metro type: what CTA's own formats describe (the 'L').
    public static let metro = 1

    public func contains(_ routeType: Int) -> Bool { ranges.contains { $0.contains(routeType) } }

    /// A comma-separated list of types and inclusive ranges: `0,1,2,100-199`. Nil when empty or
    /// when an item is not a number or a range of them.
    public init?(parsing text: String) {
        var ranges: [ClosedRange<Int>] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = item.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.filter { $0 != " " }) }
            guard bounds.count == 1 || bounds.count == 2, let low = bounds.first!, let high = bounds.last!, low >= 0, low <= high else { return nil }
            ranges.append(low...high)
        }
        guard !ranges.isEmpty else { return nil }
        self.ranges = ranges
    }

    /// The list as `init(parsing:)` reads it.
    public var description: String {
        ranges.map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",")
    }
}
