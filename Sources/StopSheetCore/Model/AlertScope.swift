/// Where an alert applies. Bus scopes are not represented: decoders drop them, and an alert left
/// with no train scope is dropped (docs/stop-sheet.md §2.2).
public enum AlertScope: Hashable, Sendable {
    case systemwide
    case route(RouteID)
    /// A station map id (`4xxxx`) or a platform stop id (`3xxxx`); any GTFS stop id.
    case station(String)
    /// GTFS-realtime: a train `route_type` alone — every station of that mode.
    case routeType(Int)
    /// GTFS-realtime: an `agency_id` alone — that agency's stations.
    case agency(String)
}
