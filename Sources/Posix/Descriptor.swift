#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The one owner of an open file descriptor: it closes the descriptor exactly once, at the first
/// `close()` or when the owner goes, whichever comes first, from whichever thread.
///
/// A descriptor closed twice closes whatever its number was given to in between: another
/// thread's socket, a connection accepted a moment ago (a test process runs its tests side by
/// side, so that was once a stranger's echo ending in a clean EOF). Every descriptor kept past the
/// scope that opened it is held through this type; one opened and closed in one scope is closed
/// by that scope's `defer`. DescriptorOwnershipTests holds the sources to that.
public final class Descriptor: Sendable {
    /// The number, for the calls this type does not make. Not to be closed by anyone else.
    public let raw: Int32
    private let open = Atomic<Bool>(true)

    /// Takes `raw` over: from here on only this closes it. `raw` must be an open descriptor.
    public init(adopting raw: Int32) {
        precondition(raw >= 0, "adopting descriptor \(raw)")
        self.raw = raw
    }

    /// Whether `close()` has not run yet.
    public var isOpen: Bool { open.load(ordering: .acquiring) }

    /// Closes it now; a later call, or the owner's end, does nothing.
    public func close() {
        guard open.exchange(false, ordering: .acquiringAndReleasing) else { return }
        _ = Glibc.close(raw)
    }

    deinit { close() }
}
