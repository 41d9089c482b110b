import Glibc
import Posix
import Testing
@testable import StopSheetDaemon

/// The loop's inbox on a real eventfd: a burst of hand-overs from other threads costs one write,
/// and the next hand-over after the loop took its inbox wakes it again.
@Suite struct LoopInboxTests {
    /// The eventfd's counter, read (and so reset) as the loop's `take` would not: what was written.
    static func written(_ fd: Int32) -> UInt64 {
        var counter: UInt64 = 0
        return read(fd, &counter, MemoryLayout<UInt64>.size) == MemoryLayout<UInt64>.size ? counter : 0
    }

    @Test func aBurstOfHandOversWakesTheLoopOnceAndTheNextAfterATakeAgain() throws {
        let wake = Descriptor(adopting: try EventFD.open())
        let fd = wake.raw
        let inbox = LoopInbox()
        inbox.open(wake: wake)
        defer { inbox.close() }
        for _ in 0..<100 { inbox.post {} }
        inbox.requestStop()
        #expect(Self.written(fd) == 1, "one write for 101 hand-overs")
        let batch = inbox.take()
        #expect(batch.work.count == 100 && batch.stopRequested)
        inbox.post {}
        #expect(Self.written(fd) == 1, "the first hand-over after a take wakes the loop")
        #expect(inbox.take().work.count == 1)
    }
}
