import Testing
import StopSheetCore
@testable import StopSheetDaemon

/// `--now`'s clock reads whole seconds floored, as a wall clock does: the second a time falls in,
/// before 1970 as after (Swift's division truncates towards zero, which would make the second
/// before 1970 two seconds long).
@Suite struct DaemonClockTests {
    @Test func aTimeFallsInTheSecondThatHoldsIt() {
        let second: Int64 = 1_000_000_000
        let cases: [(nanoseconds: Int64, second: Int64)] = [
            (0, 0), (second - 1, 0), (second, 1), (-1, -1), (-second + 1, -1), (-second, -1), (-second - 1, -2), (-10 * second, -10),
        ]
        for (nanoseconds, expected) in cases {
            #expect(DaemonClock.wholeSeconds(nanoseconds: nanoseconds) == expected, "\(nanoseconds) ns")
        }
    }

    /// `--now`'s clock says it is pinned (`health.clock.pinned`) and runs on from its instant,
    /// never back, and never to the real time; the real clock and a hand-made one are not pinned.
    @Test func aPinnedClockSaysSoAndRunsOnFromItsInstant() {
        let start = Instant(secondsSince1970: 784_111_777)
        let pinned = DaemonClock.pinned(at: start)
        #expect(pinned.isPinned && !DaemonClock.system.isPinned && !DaemonClock { start }.isPinned)
        let first = pinned.now(), second = pinned.now()
        #expect(first >= start && second >= first && second < DaemonClock.system.now(), "\(first) \(second)")
    }
}
