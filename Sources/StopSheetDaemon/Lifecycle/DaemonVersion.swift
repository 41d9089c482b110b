import StopSheetCore

/// What only the daemon knows about its version; the version itself is StopSheetCore's
/// `StopSheetVersion.current`; the wire contract's is StopSheetProtocol's `ProtocolVersion`.
extension StopSheetVersion {
    /// The git commit the binary was built from. scripts/build-release.sh (`make install`,
    /// `make deb`) records it at build time, offline, in a generated file it compiles in with
    /// -DSTOPSHEET_BUILD_INFO; any other build, or one outside git, says `unknown`.
    #if STOPSHEET_BUILD_INFO
    public static let commit = BuildInfo.commit
    #else
    public static let commit = "unknown"
    #endif

    /// `stopsheetd 0.1.0 (commit 5a98afc1b2c3)`: what `--version` prints.
    public static func line(program: String) -> String {
        "\(program) \(current) (commit \(commit))"
    }
}
