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

    /// Hand-overs made before the loop runs are kept, and the loop's opening of the inbox wakes
    /// it for them, for any one kind alone; an inbox with nothing handed over neither wakes it
    /// nor asks it to stop.
    @Test func whatWasHandedOverBeforeTheLoopOpenedWakesItOnce() throws {
        let empty = LoopInbox()
        let quiet = Descriptor(adopting: try EventFD.open())
        let quietFD = quiet.raw
        empty.open(wake: quiet)
        defer { empty.close() }
        #expect(Self.written(quietFD) == 0, "nothing handed over: no wake-up")
        let batch = empty.take()
        #expect(batch.work.isEmpty && batch.completions.isEmpty && !batch.stopRequested)

        let handOvers: [(LoopInbox) -> Void] = [
            { $0.post {} },
            { $0.complete(LoopInbox.Completion(fd: 7, resumption: 1)) },
            { $0.requestStop() },
        ]
        for (index, handOver) in handOvers.enumerated() {
            let inbox = LoopInbox()
            handOver(inbox)
            let wake = Descriptor(adopting: try EventFD.open())
            let fd = wake.raw
            inbox.open(wake: wake)
            #expect(Self.written(fd) == 1, "hand-over \(index) made before the loop opened")
            let taken = inbox.take()
            #expect(taken.work.count + taken.completions.count + (taken.stopRequested ? 1 : 0) == 1, "hand-over \(index)")
            inbox.close()
        }
    }
}
