/// Lets a message through at most once per interval and counts the rest, so a condition that
/// repeats under attack (descriptor exhaustion, a full server) logs a line, not a flood.
struct LogThrottle {
    let interval: Int64
    private var nextAllowed: Int64 = .min
    private var suppressed = 0

    init(intervalNanoseconds: Int64) { self.interval = intervalNanoseconds }

    /// nil when this occurrence is to be skipped; else how many were skipped before it.
    mutating func admit(now: Int64) -> Int? {
        guard now >= nextAllowed else {
            suppressed += 1
            return nil
        }
        nextAllowed = now + interval
        defer { suppressed = 0 }
        return suppressed
    }
}

extension Log {
    /// Whether `level` is at or above the configured threshold; checked before building fields,
    /// so a disabled message costs nothing on the serving loop.
    static func isEnabled(_ level: LogLevel) -> Bool { Log.level.shows(level) }
}
