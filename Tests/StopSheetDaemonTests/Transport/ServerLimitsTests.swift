import Testing
@testable import StopSheetDaemon

/// The loop's tick feeds the watchdog, so a watchdog pinged every `interval` makes the tick come
/// four times at least in that interval; a slow watchdog leaves the default tick as it is.
@Suite struct ServerLimitsTests {
    @Test func aWatchdogQuickerThanTheTickQuickensIt() {
        var limits = ServerLimits()
        #expect(limits.tickInterval == .seconds(1))
        limits.tickOften(enoughFor: .seconds(2))
        #expect(limits.tickInterval == .milliseconds(500))
    }

    @Test func aSlowWatchdogLeavesTheTickAsItIs() {
        var limits = ServerLimits()
        limits.tickOften(enoughFor: .seconds(30))
        #expect(limits.tickInterval == .seconds(1))
    }

    /// The slots kept for root: as configured, never fewer than none and never more than half of
    /// all connections, so a small `maxConnections` still serves other users.
    @Test func theReserveIsAtMostHalfOfAllAndNeverNegative() {
        var limits = ServerLimits()
        (limits.maxConnections, limits.reservedConnections) = (100, 8)
        #expect(limits.reserve == 8)
        (limits.maxConnections, limits.reservedConnections) = (10, 8)
        #expect(limits.reserve == 5)
        (limits.maxConnections, limits.reservedConnections) = (10, -3)
        #expect(limits.reserve == 0)
    }

    /// The loop's times in nanoseconds: a tick of at least a millisecond (a tick of zero would
    /// spin), a grace of at most the drain (the connections are cut at the drain's end anyway).
    @Test func theTickIsAtLeastAMillisecondAndTheGraceAtMostTheDrain() {
        var limits = ServerLimits()
        #expect(limits.tickNanoseconds == 1_000_000_000 && limits.graceNanoseconds == 500_000_000)
        (limits.tickInterval, limits.drainGrace, limits.drainTimeout) = (.zero, .seconds(9), .seconds(2))
        #expect(limits.tickNanoseconds == 1_000_000 && limits.graceNanoseconds == 2_000_000_000)
        limits.tickInterval = .microseconds(1500)
        #expect(limits.tickNanoseconds == 1_500_000)
    }
}
