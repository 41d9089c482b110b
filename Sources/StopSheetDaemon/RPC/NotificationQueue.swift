import Synchronization
import StopSheetProtocol

/// The notifications one connection owes its client, latest state only: at most one entry per
/// key (a subscription and what it watches), a newer one replacing an unsent one in place. So a
/// client that stops reading costs one entry per thing it watches, however often things change.
/// The session writes them between whole lines when its output has room (`Session.answer`).
///
/// Owned by the loop thread: the session that holds it and the subscription handlers, which run
/// there, are its only users. It is `Sendable` only so that an `RPCContext` can carry it to a
/// handler; no other thread ever touches it, which debug builds check (`OwningThread`).
final class NotificationQueue: @unchecked Sendable {
    struct Key: Hashable {
        /// What the entries of one `remove(group:)` share: a subscription's id.
        var group: String
        var item: String
    }

    /// One notification line, `{"jsonrpc":"2.0","method":…,"params":…}` and its newline, encoded
    /// when queued (`RPCResponse.notificationLine`).
    struct Notification {
        let line: [UInt8]

        /// `Method` with its params, encoded: params of another notification do not compile.
        init<Method: RPCNotificationType>(_ method: Method.Type, params: PreEncoded<Method.Params>) { self.init(method: Method.name, params: params.bytes) }

        /// Untyped, for tests' stand-in notifications: `params`, the encoded params object.
        init(method: String, params: [UInt8]) { line = RPCResponse.notificationLine(method: method, params: params) }

        /// The bytes `write(into:)` appends.
        var lineBytes: Int { line.count }

        func write<Sink: JSONSink>(into output: inout Sink) { output.append(shared: line) }
    }

    // Unchecked for exclusivity: one thread owns the queue (`OwningThread` checks it in debug
    // builds) and none of its methods calls out while it holds them, so no access can overlap;
    // checked, `isEmpty` alone, asked every round of every connection, cost more than it guards.
    /// First-queued order; a replaced entry keeps its place.
    @exclusivity(unchecked) private var order: [Key] = []
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var entries: [Key: Notification] = [:]
    /// Asks the loop to bring this connection up to date (set by the loop when it makes the session).
    let wake: () -> Void
    /// Called once when the connection ends, so its subscriptions end with it.
    var onEnd: (() -> Void)?
    /// The daemon-wide count of what is queued, kept by whoever fills queues.
    var counters: NotificationCounters?
    private(set) var ended = false
    private var thread = OwningThread()

    init(wake: @escaping () -> Void) { self.wake = wake }

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// Queues `notification` under `key`, replacing an unsent one, and wakes the loop.
    func post(_ notification: Notification, key: Key) {
        thread.check("NotificationQueue")
        guard !ended else { return }
        if let old = entries.updateValue(notification, forKey: key) {
            counters?.replaced(old.lineBytes, by: notification.lineBytes)
        } else {
            order.append(key)
            counters?.added(notification.lineBytes)
        }
        wake()
    }

    /// Drops every unsent entry of a group (an ended subscription).
    func remove(group: String) {
        thread.check("NotificationQueue")
        for key in order[start...] where key.group == group {
            if let old = entries.removeValue(forKey: key) { counters?.removed(old.lineBytes) }
        }
        compact(force: true)
    }

    /// Writes entries, oldest first, while `output` is not past `outputLimit` bytes (the rule the
    /// session's answers follow): how many it wrote, and whether it stopped with entries left.
    func write<Sink: JSONSink>(into output: inout Sink, outputLimit: Int) -> (written: Int, more: Bool) {
        thread.check("NotificationQueue")
        var written = 0
        while start < order.count {
            guard output.count <= outputLimit else { return (written, true) }
            let key = order[start]
            start += 1
            guard let notification = entries.removeValue(forKey: key) else { continue }
            counters?.removed(notification.lineBytes)
            notification.write(into: &output)
            written += 1
        }
        compact(force: false)
        return (written, false)
    }

    /// The connection is gone: nothing more is queued, and its owner is told once.
    func end() {
        thread.check("NotificationQueue")
        guard !ended else { return }
        ended = true
        for notification in entries.values { counters?.removed(notification.lineBytes) }
        entries = [:]
        order = []
        start = 0
        let onEnd = onEnd
        self.onEnd = nil
        onEnd?()
    }

    /// Keys of written or removed entries are dropped from `order` once they are most of it.
    private func compact(force: Bool) {
        if start == order.count {
            order.removeAll(keepingCapacity: true)
            start = 0
        } else if force || start > 64 && start * 2 > order.count {
            order = order[start...].filter { entries[$0] != nil }
            start = 0
        }
    }
}

/// How many notifications all connections hold unsent, and their line bytes: the measure that
/// coalescing keeps bounded. Written on the loop thread, read from anywhere.
final class NotificationCounters: Sendable {
    let queued = Atomic<Int>(0)
    let queuedBytes = Atomic<Int>(0)

    func added(_ bytes: Int) {
        queued.wrappingAdd(1, ordering: .relaxed)
        queuedBytes.wrappingAdd(bytes, ordering: .relaxed)
    }

    func replaced(_ old: Int, by new: Int) { queuedBytes.wrappingAdd(new - old, ordering: .relaxed) }

    func removed(_ bytes: Int) {
        queued.wrappingSubtract(1, ordering: .relaxed)
        queuedBytes.wrappingSubtract(bytes, ordering: .relaxed)
    }
}
