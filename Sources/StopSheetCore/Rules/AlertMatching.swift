/// Which alerts apply to which station (docs/stop-sheet.md §2.2) — the one place this rule lives.
///
/// The most specific scope wins: an alert that names stations applies to those stations only
/// (by map id or platform id); CTA lists a station alert's own line beside it as context, so
/// "Elevator at 69th out of service" must not light up every Red Line station. Otherwise an alert
/// applies when it is systemwide, names a route the station serves — a `P` alert also reaching
/// stations served only by the Purple Express (`Pexp`) —, names the `route_type` of one of its
/// lines, or names its agency.
///
/// Built once per snapshot so that matching every station is linear in stations + alerts.
public struct AlertMatching: Sendable {
    private var systemwide: [Int] = []
    private var byRoute: [RouteID: [Int]] = [:]
    private var byStop: [String: [Int]] = [:]
    private var byRouteType: [Int: [Int]] = [:]
    private var byAgency: [String: [Int]] = [:]

    /// Indexes `alerts` by scope; results refer to positions in this array. `stopsWithin` maps
    /// GTFS nodes and boarding areas to their station: an alert naming one is about the station.
    public init(_ alerts: [Alert], stopsWithin: [String: String] = [:]) {
        for (position, alert) in alerts.enumerated() {
            let namedStops = alert.scopes.compactMap { scope -> String? in
                if case .station(let id) = scope { return id }
                return nil
            }
            if !namedStops.isEmpty {
                for stop in namedStops { byStop[stopsWithin[stop] ?? stop, default: []].append(position) }
                continue
            }
            for scope in alert.scopes {
                switch scope {
                case .systemwide: systemwide.append(position)
                case .route(let route): byRoute[route, default: []].append(position)
                case .routeType(let type): byRouteType[type, default: []].append(position)
                case .agency(let agency): byAgency[agency, default: []].append(position)
                case .station: break
                }
            }
        }
    }

    /// Positions of the alerts that apply to `station`, each once, in upstream order.
    public func alerts(applyingTo station: Station) -> [Int] {
        var positions = systemwide
        for route in station.routes { positions += byRoute[route] ?? [] }
        // The Purple Express runs on Purple Line track: its stations hear Purple Line alerts.
        if station.routes.contains(.purpleExpress), !station.routes.contains(.purple) { positions += byRoute[.purple] ?? [] }
        if !byRouteType.isEmpty {
            for type in Set(station.routeTypes) { positions += byRouteType[type] ?? [] }
        }
        // A station whose agency nothing names (CTA's own formats, a one-agency feed without
        // agency_id) hears every agency's alerts, as a systemwide one.
        if let agency = station.agencyID { positions += byAgency[agency] ?? [] } else { positions += byAgency.values.joined() }
        positions += byStop[station.id] ?? []
        for platform in station.platforms { positions += byStop[platform.stopID] ?? [] }
        // GTFS-realtime may name an entrance (an elevator's street access): that is the station.
        for entrance in station.entrances { positions += byStop[entrance.id] ?? [] }
        // An alert naming a route twice, or both a station and its platform, counts once. Sorting
        // and dropping neighbours is the set's result without a set's hashing, once per station.
        positions.sort()
        var kept = 0
        for position in positions where kept == 0 || positions[kept - 1] != position {
            positions[kept] = position
            kept += 1
        }
        positions.removeLast(positions.count - kept)
        return positions
    }
}
