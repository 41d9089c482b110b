import StopSheetCore

extension Instant {
    /// Shorthand for expectations: `Instant(1402304400)`.
    init(_ seconds: Int64) { self.init(secondsSince1970: seconds) }
}
