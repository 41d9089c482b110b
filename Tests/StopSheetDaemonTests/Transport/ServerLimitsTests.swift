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
}
