import Testing
@testable import StopSheetDaemon

/// A connection's generation tells its epoll events and wake-ups from those of the connection
/// before it on the same fd, and from the loop's own descriptors' (tagged 0): so each new
/// connection's differs from the last one's and is never 0, the wrap after 2³² − 1 included.
@Suite struct ConnectionGenerationsTests {
    @Test func consecutiveConnectionsGetDifferentGenerationsNeverZero() {
        var generations = ConnectionGenerations()
        var given: [UInt32] = []
        for _ in 1...5 { given.append(generations.next()) }
        #expect(!given.contains(0))
        #expect(Set(given).count == given.count, "\(given)")
    }

    @Test func afterTheLargestGenerationTheCountStartsAgainAboveZero() {
        var generations = ConnectionGenerations(last: UInt32.max - 2)
        let given = (1...4).map { _ in generations.next() }
        #expect(given == [UInt32.max - 1, UInt32.max, 1, 2])
    }
}
