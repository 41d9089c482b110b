import Synchronization

/// Raised once, when the daemon stops; long work (a fetch) checks it and gives up early.
///
/// Threads: raised from any thread, read from any thread.
public final class StopFlag: Sendable {
    private let raised = Atomic<Bool>(false)

    public init() {}

    public func raise() { raised.store(true, ordering: .releasing) }

    public var isRaised: Bool { raised.load(ordering: .acquiring) }
}
