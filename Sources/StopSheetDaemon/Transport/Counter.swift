import Synchronization

/// One count in a table built once: shared by reference, so the table itself never changes.
final class Counter: Sendable {
    let value = Atomic<Int>(0)

    var count: Int { value.load(ordering: .relaxed) }

    /// The serving loop is the only writer of every table of these (`RequestCounters`,
    /// `ServerCounterTable`).
    func add(_ amount: Int = 1) { value.add(byItsOnlyWriter: amount) }
}
