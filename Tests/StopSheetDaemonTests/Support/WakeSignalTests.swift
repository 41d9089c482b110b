import StopSheetDaemon
import Testing

/// `WakeSignal.wait` says whether it was signalled: a wait that runs out says no, and a signal
/// made before the wait is not lost. Waits of 0 ms and 1 ms unsignalled: nothing here depends on
/// how long a wait takes.
@Suite struct WakeSignalTests {
    @Test func aWaitThatRunsOutIsNotASignal() {
        let wake = WakeSignal()
        #expect(!wake.wait(milliseconds: 0))
        wake.signal()
        #expect(wake.wait(milliseconds: 0), "a signal made before the wait")
        #expect(!wake.wait(milliseconds: 0), "a wait takes every signal made so far")
        wake.signal()
        wake.signal()
        #expect(wake.wait(milliseconds: -1), "signalled: no wait at all, however long it may be")
        #expect(!wake.wait(milliseconds: 1))
    }
}
