/// A station's step-free access, aggregated over its platforms (docs/stop-sheet.md §2.1).
public enum StepFreeStatus: String, Sendable, CaseIterable, Codable {
    case available
    case none
    case unknown

    /// `available` if any platform is step-free; else `none` if any platform is reported not
    /// step-free; else `unknown`.
    public static func aggregate(_ platforms: [Bool?]) -> StepFreeStatus {
        if platforms.contains(true) { return .available }
        if platforms.contains(false) { return .none }
        return .unknown
    }

    /// Platforms disagree when their reported values differ (unknown counts as a value).
    public static func isPartial(_ platforms: [Bool?]) -> Bool {
        guard let first = platforms.first else { return false }
        return platforms.contains { $0 != first }
    }
}
