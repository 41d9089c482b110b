import StopSheetCore
@testable import StopSheetDaemon

/// A wall clock that moves only when the test moves it.
final class ManualClock: Sendable {
    private let instant: Locked<Instant>

    init(_ start: Instant) { instant = Locked(start) }

    var now: Instant { instant.withLock { $0 } }

    func set(_ new: Instant) { instant.withLock { $0 = new } }

    /// The `DaemonClock` the parts under test read.
    var clock: DaemonClock { DaemonClock { [instant] in instant.withLock { $0 } } }
}

extension DaemonClock {
    /// A clock standing still at `instant`.
    static func fixed(_ instant: Instant) -> DaemonClock { DaemonClock { instant } }
}
