/// What the dialog calls an alert: `Active`, `Planned`, or the generic fallback.
/// The declaration order is the dialog order.
public enum AlertKind: String, Sendable, CaseIterable, Comparable, Codable {
    case active
    case planned
    case unknown

    public static func < (lhs: AlertKind, rhs: AlertKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
