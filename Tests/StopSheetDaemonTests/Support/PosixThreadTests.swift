import Foundation
import Testing
@testable import StopSheetDaemon

/// `PosixThread.join` says whether the thread has ended: no while it runs (a wait of 0 ms, so
/// nothing depends on how long anything takes), yes once it has, with its body's work done.
@Suite struct PosixThreadTests {
    @Test func joinSaysWhetherTheThreadHasEnded() {
        let release = DispatchSemaphore(value: 0)
        let ran = Locked(false)
        let thread = PosixThread(name: "a-name-longer-than-fifteen-bytes") {
            release.wait()
            ran.withLock { $0 = true }
        }
        #expect(!thread.join(milliseconds: 0), "still waiting for its release")
        #expect(!thread.join(milliseconds: -5), "a negative wait is no wait")
        release.signal()
        #expect(thread.join(milliseconds: 60_000))
        #expect(ran.withLock { $0 })
    }
}
