/// A line as a GTFS feed's `routes.txt` describes it: its id as the feed spells it, and what
/// riders read (`route_short_name`, `route_long_name`, `route_color`). CTA's own formats give
/// only ids: their stations carry no `Line`s.
public struct Line: Hashable, Sendable {
    public var id: RouteID
    public var shortName: String?
    public var longName: String?
    /// Six hex digits without `#`, as GTFS gives it.
    public var color: String?
    /// GTFS `route_type`.
    public var routeType: Int
    /// GTFS `agency_id` (resolved to the feed's only agency when the route leaves it out).
    public var agencyID: String?

    public init(id: RouteID, shortName: String? = nil, longName: String? = nil, color: String? = nil, routeType: Int, agencyID: String? = nil) {
        self.id = id
        self.shortName = shortName?.isEmpty == false ? shortName : nil
        self.longName = longName?.isEmpty == false ? longName : nil
        self.color = color?.isEmpty == false ? color : nil
        self.routeType = routeType
        self.agencyID = agencyID?.isEmpty == false ? agencyID : nil
    }
}
