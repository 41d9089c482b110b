import Foundation
import Glibc
import Testing
@testable import StopSheetDaemon

/// The signals thread on its own: SIGHUP asks for a reload and the thread waits on; SIGTERM or
/// SIGINT stops, once, and ends the thread. Signals are sent to that thread alone (as the daemon
/// sends its own SIGTERM), never to the test process, whose other threads do not block them.
@Suite struct SignalsTests {
    /// The thread, started from one that blocked the signals first as `Daemon.main` does (a
    /// thread inherits its starter's mask), with what it was told.
    private func startWaiting(reloads: DispatchSemaphore, stops: Locked<[Int32]>, stopped: DispatchSemaphore) -> PosixThread {
        let started = Locked<PosixThread?>(nil)
        let made = DispatchSemaphore(value: 0)
        Thread {
            Signals.block()
            started.withLock { $0 = Signals.startWaiting(reload: { reloads.signal() }, stop: { signal in
                stops.withLock { $0.append(signal) }
                stopped.signal()
            }) }
            made.signal()
        }.start()
        _ = made.wait(timeout: .now() + patience)
        return started.withLock { $0 }!
    }

    @Test func aHangUpReloadsAndWaitsOnATermStopsAndEnds() {
        let (reloads, stopped) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let stops = Locked<[Int32]>([])
        let thread = startWaiting(reloads: reloads, stops: stops, stopped: stopped)
        thread.send(SIGHUP)
        #expect(reloads.wait(timeout: .now() + patience) == .success, "SIGHUP: a reload")
        thread.send(SIGHUP)
        #expect(reloads.wait(timeout: .now() + patience) == .success, "and the thread waits on for the next")
        thread.send(SIGTERM)
        #expect(stopped.wait(timeout: .now() + patience) == .success)
        #expect(thread.join(milliseconds: Int64(patience * 1000)), "a stop ends the thread")
        #expect(stops.withLock { $0 } == [SIGTERM])
    }

    @Test func anInterruptStopsToo() {
        let (reloads, stopped) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let stops = Locked<[Int32]>([])
        let thread = startWaiting(reloads: reloads, stops: stops, stopped: stopped)
        thread.send(SIGINT)
        #expect(stopped.wait(timeout: .now() + patience) == .success && thread.join(milliseconds: Int64(patience * 1000)))
        #expect(stops.withLock { $0 } == [SIGINT])
    }
}
