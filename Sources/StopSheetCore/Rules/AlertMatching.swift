/// Which alerts apply to which station (docs/stop-sheet.md §2.2) — the one place this rule lives.
///
/// The most specific scope wins: an alert that names stations applies to those stations only
/// (by map id or platform id); CTA lists a station alert's own line beside it as context, so
/// "Elevator at 69th out of service" must not light up every Red Line station. Otherwise an alert
/// applies when it is systemwide, or names a route the station serves — a `P` alert also reaching
/// stations served only by the Purple Express (`Pexp`).
///
/// Built once per snapshot so that matching every station is linear in stations + alerts.
public struct AlertMatching: Sendable {
    private var systemwide: [Int] = []
    private var byRoute: [RouteID: [Int]] = [:]
    private var byStop: [String: [Int]] = [:]

    /// Indexes `alerts` by scope; results refer to positions in this array.
    public init(_ alerts: [Alert]) {
        for (position, alert) in alerts.enumerated() {
            let namedStops = alert.scopes.compactMap { scope -> String? in
                if case .station(let id) = scope { return id }
                return nil
            }
            if !namedStops.isEmpty {
                for stop in namedStops { byStop[stop, default: []].append(position) }
                continue
            }
            for scope in alert.scopes {
                switch scope {
                case .systemwide: systemwide.append(position)
                case .route(let route): byRoute[route, default: []].append(position)
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
