import StopSheetProtocol
import Testing
@testable import StopSheetDaemon

/// `refresh` makes the daemon fetch from its upstreams, so it is for root and the daemon's own
/// user alone: any other user is refused with notPermitted, before anything is fetched.
@Suite struct RefreshPermissionTests {
    @Test func rootAndTheDaemonsOwnUserMayRefreshAnyoneElseIsRefused() {
        let store = Store(alertsSource: nil, stationsSource: "test:stations", clock: .fixed(UpcomingOutageTests.t0), zones: .cta)
        let service = StopSheetService(store: store, refreshers: [], connections: { 0 }, clock: store.clock)
        func reply(_ uid: UInt32) -> MethodReply<Answer.Refreshed> { service.refresh(.all, peer: PeerCredentials(pid: 1, uid: uid, gid: uid)) }
        for uid in [0, DaemonUser.uid] {
            if case .error(let error) = reply(uid) { Issue.record("uid \(uid) refused: \(error)") }
        }
        let stranger = [UInt32(1000), 1001].first { $0 != DaemonUser.uid }!
        guard case .error(let error) = reply(stranger) else {
            Issue.record("uid \(stranger) may refresh")
            return
        }
        #expect(error == .notPermitted("refresh is for root or the daemon's own user (uid \(DaemonUser.uid))"))
    }
}
