/// A CTA train route id as the Alerts API and the app API spell it:
/// `Red, Blue, Brn, G, Org, P, Pexp, Pink, Y`.
public struct RouteID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let red = RouteID("Red")
    public static let blue = RouteID("Blue")
    public static let brown = RouteID("Brn")
    public static let green = RouteID("G")
    public static let orange = RouteID("Org")
    public static let purple = RouteID("P")
    public static let purpleExpress = RouteID("Pexp")
    public static let pink = RouteID("Pink")
    public static let yellow = RouteID("Y")

    /// Every train route, in the order the CTA lists its lines.
    public static let trainRoutes: [RouteID] = [.red, .blue, .brown, .green, .orange, .purple, .purpleExpress, .pink, .yellow]

    /// Canonical id for an upstream spelling (`red`, `Red Line`, `Brown`, `Pnk`, …), or nil for
    /// anything that is not a train route (bus routes such as `22`).
    public static func train(_ text: String) -> RouteID? {
        var key = text.lowercased().filter { !$0.isWhitespace }
        if key.hasSuffix("line") { key.removeLast(4) }
        switch key {
        case "red": return .red
        case "blue": return .blue
        case "brn", "brown": return .brown
        case "g", "green": return .green
        case "org", "o", "orange": return .orange
        case "p", "purple": return .purple
        case "pexp", "purpleexpress": return .purpleExpress
        case "pink", "pnk": return .pink
        case "y", "yellow": return .yellow
        default: return nil
        }
    }

    public static func < (lhs: RouteID, rhs: RouteID) -> Bool {
        let order = { (route: RouteID) in trainRoutes.firstIndex(of: route) ?? trainRoutes.count }
        return (order(lhs), lhs.rawValue) < (order(rhs), rhs.rawValue)
    }

    public var description: String { rawValue }
}
