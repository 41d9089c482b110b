/// The one place the release version lives: stopsheetd's `version`, `health`, `--version` and
/// HTTP `User-Agent` read it, and so does `stopsheetctl --version` (which links no daemon code;
/// what only the daemon knows about itself is in StopSheetDaemon/Lifecycle/DaemonVersion.swift).
public enum StopSheetVersion {
    public static let current = "0.1.0"
}
