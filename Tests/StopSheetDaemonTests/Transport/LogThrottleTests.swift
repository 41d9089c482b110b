import Testing
@testable import StopSheetDaemon

/// The loop's throttle of a line that repeats under attack (accept failing for want of
/// descriptors, a full server): one line per interval, which says how many were skipped since
/// the last one, counted afresh after each.
@Suite struct LogThrottleTests {
    @Test func oneLinePerIntervalEachCountingThoseSkippedBeforeIt() {
        var throttle = LogThrottle(intervalNanoseconds: 10)
        #expect(throttle.admit(now: 0) == 0, "the first goes through, none skipped")
        #expect(throttle.admit(now: 1) == nil)
        #expect(throttle.admit(now: 9) == nil)
        #expect(throttle.admit(now: 10) == 2, "a whole interval on: through, with the two skipped")
        #expect(throttle.admit(now: 19) == nil)
        #expect(throttle.admit(now: 25) == 1, "counted afresh after each line let through")
        #expect(throttle.admit(now: 1_000) == 0)
    }
}
