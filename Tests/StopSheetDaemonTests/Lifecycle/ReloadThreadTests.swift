import Dispatch
import Synchronization
import Testing
@testable import StopSheetDaemon

/// The reload thread runs the reload once per request, for as long as the daemon runs; requests
/// made while a reload runs become one more run after it; after `stop()` no reload starts. Each
/// run here waits at a gate the test opens, so what runs when is the test's doing, not timing's
/// (the 60 s waits are only there so a thread that never runs fails instead of hanging).
@Suite struct ReloadThreadTests {
    /// A reload that says when it starts and then waits for the test to let it finish.
    final class GatedWork: Sendable {
        let runs = Atomic<Int>(0)
        private let started = DispatchSemaphore(value: 0)
        private let gate = DispatchSemaphore(value: 0)

        func run() {
            runs.add(1, ordering: .relaxed)
            started.signal()
            gate.wait()
        }

        /// True once a run has started (within 60 s).
        func awaitStart() -> Bool { started.wait(timeout: .now() + 60) == .success }
        func letFinish() { gate.signal() }
    }

    @Test func eachRequestAfterTheLastReloadRunsItAgain() throws {
        let reloads = ReloadThread()
        let work = GatedWork()
        let thread = reloads.start { work.run() }
        for run in 1...3 {
            reloads.request()
            #expect(work.awaitStart(), "request \(run) ran a reload")
            work.letFinish()
        }
        reloads.stop()
        #expect(thread.join(milliseconds: 60_000))
        #expect(work.runs.load(ordering: .relaxed) == 3)
    }

    @Test func requestsMadeDuringAReloadBecomeOneMoreRun() throws {
        let reloads = ReloadThread()
        let work = GatedWork()
        let thread = reloads.start { work.run() }
        reloads.request()
        try #require(work.awaitStart())
        for _ in 1...4 { reloads.request() }
        work.letFinish()
        #expect(work.awaitStart(), "the requests made meanwhile ran one more reload")
        reloads.stop()
        work.letFinish()
        #expect(thread.join(milliseconds: 60_000))
        #expect(work.runs.load(ordering: .relaxed) == 2)
    }

    @Test func noReloadStartsAfterStopEvenWithARequestWaiting() throws {
        let reloads = ReloadThread()
        let work = GatedWork()
        let thread = reloads.start { work.run() }
        reloads.request()
        try #require(work.awaitStart())
        reloads.request()
        reloads.stop()
        work.letFinish()
        #expect(thread.join(milliseconds: 60_000), "the thread ends once the reload in progress finishes")
        #expect(work.runs.load(ordering: .relaxed) == 1)
    }
}
