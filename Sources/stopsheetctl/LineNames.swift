import StopSheetClient
import StopSheetCore

/// A line's name for a route id: what the station's `lines` member says (a GTFS feed's
/// `route_long_name`, else its `route_short_name`), else the name CTA gives its train lines, for
/// the route ids CTA's own formats send (`Red, Blue, Brn, G, Org, P, Pexp, Pink, Y`).
enum LineNames {
    static let byRoute: [RouteID: String] = [
        .red: "Red Line", .blue: "Blue Line", .brown: "Brown Line", .green: "Green Line",
        .orange: "Orange Line", .purple: "Purple Line", .purpleExpress: "Purple Line Express",
        .pink: "Pink Line", .yellow: "Yellow Line",
    ]

    /// `Brown Line` for `Brn`; an id nothing names is shown as it came (made visible). `lines` is
    /// a station's `lines` member, when the daemon sent one.
    static func name(_ routeID: String, lines: [Answer.Line]? = nil) -> TerminalText {
        let line = lines?.first { $0.id == routeID }
        let given = [line?.longName.value, line?.shortName.value].lazy.compactMap { $0 }.first { !$0.isEmpty }
        return TerminalText(given ?? byRoute[RouteID(routeID)] ?? routeID)
    }

    /// The names of route ids, in the order given.
    static func names(_ routes: [String], lines: [Answer.Line]? = nil) -> [TerminalText] {
        routes.map { name($0, lines: lines) }
    }
}
