import StopSheetCore
import Synchronization

/// Every count the serving loop keeps, each named once: the code that counts names its case, and
/// `StatsMethod` writes it where `Answer.Stats` has its member (protocol.md's `stats` table).
public enum ServerCounter: Int, CaseIterable, Sendable {
    case accepted
    /// Turned away at `maxConnections` (or the per-uid share) with the busy line.
    case refusedBusy
    /// Closed once done: the client ended and had its answers, or the daemon's stop drained it.
    case closedFinished
    case closedIdle
    /// Closed after `stuckTimeout` over `maxOutputBytes`.
    case closedStuck
    /// Hung up or reset with answers still owed (EPIPE, ECONNRESET, EPOLLHUP mid-request).
    case closedVanished
    /// Bytes read from clients, and bytes of the answers made for them (counted as each line is
    /// answered, whether or not the client stays to read it; busy lines of refused connections
    /// excluded).
    case bytesIn
    case bytesOut
    /// Notification lines written for subscribers, counted as each goes into its connection's
    /// output, as answers are.
    case notificationsSent
}

/// What the server has counted since it started, read at one moment: for `stats` and tests.
public struct ServerCounts: Sendable, Equatable, CustomStringConvertible {
    private var values: [Int]

    init(_ values: [Int]) { self.values = values }

    public subscript(counter: ServerCounter) -> Int { values[counter.rawValue] }

    /// `accepted 60, refusedBusy 0, …`, for a test's failure message.
    public var description: String { ServerCounter.allCases.map { "\($0) \(self[$0])" }.joined(separator: ", ") }
}

/// The live counters, one per `ServerCounter`: written on the loop thread only, read from anywhere.
final class ServerCounterTable: Sendable {
    private let counters = ServerCounter.allCases.map { _ in Counter() }

    /// The one counter for `counter`; hot paths keep the reference instead of looking it up.
    subscript(counter: ServerCounter) -> Counter { counters[counter.rawValue] }

    var snapshot: ServerCounts { ServerCounts(counters.map(\.count)) }
}


extension Atomic<Int> {
    /// For a counter only one thread writes (the serving loop): a plain load and store, without
    /// the locked read-modify-write of `wrappingAdd`, which the per-request path would pay for.
    /// Readers on other threads see each value whole, perhaps a moment late.
    func add(byItsOnlyWriter amount: Int) { store(load(ordering: .relaxed) &+ amount, ordering: .relaxed) }
}
