import StopSheetCore

/// The names CTA gives its train lines, for the route ids the daemon sends
/// (`Red, Blue, Brn, G, Org, P, Pexp, Pink, Y`). The one table of them.
enum LineNames {
    static let byRoute: [RouteID: String] = [
        .red: "Red Line", .blue: "Blue Line", .brown: "Brown Line", .green: "Green Line",
        .orange: "Orange Line", .purple: "Purple Line", .purpleExpress: "Purple Line Express",
        .pink: "Pink Line", .yellow: "Yellow Line",
    ]

    /// `Brown Line` for `Brn`; an id the table does not know is shown as it came (made visible).
    static func name(_ routeID: String) -> TerminalText {
        byRoute[RouteID(routeID)].map { TerminalText($0) } ?? TerminalText(routeID)
    }

    /// The names of a JSON array of route ids, in the order given.
    static func names(_ routes: JSON?) -> [TerminalText] {
        (routes?.arrayValue ?? []).compactMap(\.stringValue).map(name)
    }
}
