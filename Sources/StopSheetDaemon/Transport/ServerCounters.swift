import StopSheetCore
import Synchronization

/// Every count the serving loop keeps, each named once: the code that counts names its case, and
/// `statsPath` says where `stats` shows it (protocol.md's `stats` table). Adding a case is the
/// whole change: the counters, the snapshot and the `stats` answer are made from this list.
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

    /// Where in the `stats` result this count sits; members are appended in case order, after
    /// the members `stats` writes itself.
    var statsPath: [String] {
        switch self {
        case .accepted: ["connections", "accepted"]
        case .refusedBusy: ["connections", "refused", "busy"]
        case .closedFinished: ["connections", "closed", "finished"]
        case .closedIdle: ["connections", "closed", "idle"]
        case .closedStuck: ["connections", "closed", "stuck"]
        case .closedVanished: ["connections", "closed", "vanished"]
        case .bytesIn: ["bytes", "in"]
        case .bytesOut: ["bytes", "out"]
        case .notificationsSent: ["notificationsSent"]
        }
    }
}

/// What the server has counted since it started, read at one moment: for `stats` and tests.
public struct ServerCounts: Sendable, Equatable, CustomStringConvertible {
    private var values: [Int]

    init(_ values: [Int]) { self.values = values }

    public subscript(counter: ServerCounter) -> Int { values[counter.rawValue] }

    /// `accepted 60, refusedBusy 0, …`, for a test's failure message.
    public var description: String { ServerCounter.allCases.map { "\($0) \(self[$0])" }.joined(separator: ", ") }

    /// Each count at its `statsPath` in `result`, which holds the members `stats` writes itself.
    func insert(into result: inout JSONObject) {
        for counter in ServerCounter.allCases { result.set(counter.statsPath[...], .int(self[counter])) }
    }
}

/// The live counters, one per `ServerCounter`: written on the loop thread only, read from anywhere.
final class ServerCounterTable: Sendable {
    private let counters = ServerCounter.allCases.map { _ in Counter() }

    /// The one counter for `counter`; hot paths keep the reference instead of looking it up.
    subscript(counter: ServerCounter) -> Counter { counters[counter.rawValue] }

    var snapshot: ServerCounts { ServerCounts(counters.map(\.count)) }
}

extension JSONObject {
    /// Sets the member at `path`, making objects on the way; a new member goes last.
    fileprivate mutating func set(_ path: ArraySlice<String>, _ value: JSON) {
        guard let key = path.first else { return }
        let rest = path.dropFirst()
        var member: JSON = value
        if !rest.isEmpty {
            var inner = self[key]?.objectValue ?? JSONObject()
            inner.set(rest, value)
            member = .object(inner)
        }
        if let index = members.lastIndex(where: { $0.key == key }) {
            members[index].value = member
        } else {
            members.append((key, member))
        }
    }
}

extension Atomic<Int> {
    /// For a counter only one thread writes (the serving loop): a plain load and store, without
    /// the locked read-modify-write of `wrappingAdd`, which the per-request path would pay for.
    /// Readers on other threads see each value whole, perhaps a moment late.
    func add(byItsOnlyWriter amount: Int) { store(load(ordering: .relaxed) &+ amount, ordering: .relaxed) }
}
