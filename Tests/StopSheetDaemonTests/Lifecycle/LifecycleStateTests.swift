import Testing
@testable import StopSheetDaemon

/// The daemon's state moves only from where a move may start, and says so: a reload asked for
/// while starting or stopping finds `false` and announces nothing (no RELOADING=1 outside
/// `running`, no READY=1 after STOPPING=1), a move from where the state is announces once.
@Suite struct LifecycleStateTests {
    @Test func aMoveFromElsewhereIsRefusedAndAnnouncesNothing() {
        let state = Locked(LifecycleState.starting)
        var announced = 0
        #expect(!state.advance(from: [.running]) { announced += 1 })
        #expect(!state.advance(from: [.running], to: .stopping) { announced += 1 })
        #expect(announced == 0)
        #expect(state.withLock { $0 } == .starting)
    }

    @Test func aMoveFromWhereTheStateIsAnnouncesOnce() {
        let state = Locked(LifecycleState.starting)
        var announced: [LifecycleState] = []
        #expect(state.advance(from: [.starting], to: .running) { announced.append(.running) })
        #expect(state.advance(from: [.running]) { announced.append(.running) }, "staying: a reload")
        #expect(state.advance(from: [.starting, .running], to: .stopping) { announced.append(.stopping) })
        #expect(announced == [.running, .running, .stopping])
        #expect(state.withLock { $0 } == .stopping)
    }
}
