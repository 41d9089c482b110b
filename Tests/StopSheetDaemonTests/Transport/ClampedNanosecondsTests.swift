import Testing
@testable import StopSheetDaemon

/// Every timeout and interval reaches the loop as whole nanoseconds (`clampedNanoseconds`): a
/// fraction of a second is kept, a negative duration is none, and an absurd one is capped where
/// the arithmetic of the loop's clock cannot overflow.
@Suite struct ClampedNanosecondsTests {
    @Test func wholeNanosecondsNegativeAsZeroAndCappedAtABillionSeconds() {
        #expect(Duration.zero.clampedNanoseconds == 0)
        #expect(Duration.milliseconds(500).clampedNanoseconds == 500_000_000, "under a second: its fraction")
        #expect(Duration.milliseconds(2500).clampedNanoseconds == 2_500_000_000)
        #expect(Duration.nanoseconds(7).clampedNanoseconds == 7)
        #expect(Duration.seconds(-1).clampedNanoseconds == 0 && Duration.milliseconds(-1).clampedNanoseconds == 0, "a negative one, under a second too")
        #expect(Duration.milliseconds(-1500).clampedNanoseconds == 0)
        #expect(Duration.seconds(1_000_000_000).clampedNanoseconds == 1_000_000_000_000_000_000)
        #expect(Duration.seconds(Int64.max).clampedNanoseconds == 1_000_000_000_000_000_000, "capped, not overflowing")
    }
}
