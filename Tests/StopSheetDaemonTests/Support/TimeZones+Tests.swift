import StopSheetDaemon

extension TimeZones {
    /// A daemon's zones without --time-zone: Chicago's, from the system's time-zone database.
    static let cta = try! TimeZones(configured: nil)
}
