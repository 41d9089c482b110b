import StopSheetCore

/// What only the daemon knows about its version; the version itself is StopSheetCore's
/// `StopSheetVersion.current`.
extension StopSheetVersion {
    /// Bumped when an answer's shape changes incompatibly.
    public static let protocolVersion = 1
}
