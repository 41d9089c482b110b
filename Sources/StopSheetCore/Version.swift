/// The one place the release version lives; `version`, `health`, both `--version`s and the
/// HTTP `User-Agent` all read it.
public enum StopSheetVersion {
    public static let current = "0.1.0"
    /// Bumped when an answer's shape changes incompatibly.
    public static let protocolVersion = 1
}
