import StopSheetCore

/// Zones from the system's time-zone database (tzdata), decoded as the daemon decodes them, so
/// the tests see the real rules and never the test machine's own `TZ`.
public enum TestZones {
    public static let directory = "/usr/share/zoneinfo"

    /// The rules of `identifier`; a zone missing from the database stops the run (tzdata is a
    /// dependency, scripts/install-deps.sh installs it).
    public static func rules(_ identifier: String) -> TimeZoneRules {
        let path = directory + "/" + identifier
        do {
            return try TZifDecoder.decode(Fixtures.bytes(atPath: path), identifier: identifier)
        } catch {
            fatalError("\(path): \(error)")
        }
    }

    public static let chicago = rules("America/Chicago")
}
