import StopSheetCore
import Testing
@testable import StopSheetDaemon

/// A connection's notification queue and how the session writes it: latest state per key,
/// whole lines only between answers, within the output limit.
@Suite struct NotificationQueueTests {
    final class Inbox: @unchecked Sendable {
        var pending: [Session.Resumption] = []
    }

    static func notification(_ value: String) -> NotificationQueue.Notification {
        NotificationQueue.Notification(method: "changed", params: Array("{\"v\":\"\(value)\"}".utf8))
    }

    static func line(_ value: String) -> String { #"{"jsonrpc":"2.0","method":"changed","params":{"v":"\#(value)"}}"# + "\n" }

    @Test func aNewerNotificationReplacesAnUnsentOneInItsPlace() {
        let counters = NotificationCounters()
        var wakes = 0
        let queue = NotificationQueue { wakes += 1 }
        queue.counters = counters
        queue.post(Self.notification("a1"), key: .init(group: "s1", item: "a"))
        queue.post(Self.notification("b1"), key: .init(group: "s1", item: "b"))
        for n in 2...100 { queue.post(Self.notification("a\(n)"), key: .init(group: "s1", item: "a")) }
        #expect(queue.count == 2 && wakes == 101)
        #expect(counters.queued.load(ordering: .relaxed) == 2)
        #expect(counters.queuedBytes.load(ordering: .relaxed) == Self.line("a100").utf8.count + Self.line("b1").utf8.count)
        var out: [UInt8] = []
        #expect(!queue.write(into: &out, outputLimit: .max).more)
        #expect(String(decoding: out, as: UTF8.self) == Self.line("a100") + Self.line("b1"), "first-queued order, latest state")
        #expect(counters.queued.load(ordering: .relaxed) == 0 && counters.queuedBytes.load(ordering: .relaxed) == 0)
    }

    @Test func writingStopsAtTheOutputLimitAndRemovingAGroupDropsItsEntries() {
        let queue = NotificationQueue {}
        queue.post(Self.notification("x"), key: .init(group: "s1", item: "a"))
        queue.post(Self.notification("y"), key: .init(group: "s2", item: "a"))
        queue.post(Self.notification("z"), key: .init(group: "s1", item: "b"))
        var out: [UInt8] = []
        #expect(queue.write(into: &out, outputLimit: 0) == (1, true), "one line, then full")
        #expect(String(decoding: out, as: UTF8.self) == Self.line("x"))
        queue.remove(group: "s1")
        out = []
        #expect(!queue.write(into: &out, outputLimit: .max).more)
        #expect(String(decoding: out, as: UTF8.self) == Self.line("y"))
        queue.end()
        queue.post(Self.notification("late"), key: .init(group: "s2", item: "a"))
        #expect(queue.isEmpty, "nothing is queued for a connection that ended")
    }

    @Test func aSessionWritesNotificationsBetweenLinesNeverInsideAnOpenBatch() {
        var dispatcher = Dispatcher()
        dispatcher.register("echo") { params, _ in .result(params ?? .null) }
        dispatcher.register("slow") { _, _ in .later { complete in complete(.result(.string("done"))) } }
        let host = SessionHost(dispatcher: dispatcher, limits: ServerLimits(), counters: ServerCounterTable())
        let inbox = Inbox()
        let fed = FedSession(host: host) { inbox.pending.append($0) }
        let session = fed.session
        var out: [UInt8] = []
        let batch = #"[{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]},{"jsonrpc":"2.0","id":2,"method":"slow"}]"# + "\n"
        let after = #"{"jsonrpc":"2.0","id":3,"method":"echo","params":[3]}"# + "\n"
        fed.receive(batch + after)
        _ = fed.answer(into: &out)
        session.notifications.post(Self.notification("n"), key: .init(group: "s1", item: "a"))
        _ = fed.answer(into: &out)
        #expect(String(decoding: out, as: UTF8.self) == #"[{"jsonrpc":"2.0","id":1,"result":[1]}"#, "the batch's line is open: nothing else goes in")
        #expect(fed.resume(inbox.pending.removeFirst(), into: &out))
        _ = fed.answer(into: &out)
        #expect(String(decoding: out, as: UTF8.self) == #"[{"jsonrpc":"2.0","id":1,"result":[1]},{"jsonrpc":"2.0","id":2,"result":"done"}]"# + "\n"
            + Self.line("n") + #"{"jsonrpc":"2.0","id":3,"result":[3]}"# + "\n", "queued before line 3 was answered: written before its answer")
        #expect(host.counters[.notificationsSent].count == 1, "counted as written, as answers are")
    }

    /// A single request waiting on its deferred answer leaves no line open: a notification queued
    /// meanwhile is written at once, before that answer.
    @Test func aNotificationIsWrittenWhileASingleRequestWaits() {
        var dispatcher = Dispatcher()
        dispatcher.register("slow") { _, _ in .later { complete in complete(.result(.string("done"))) } }
        let host = SessionHost(dispatcher: dispatcher, limits: ServerLimits(), counters: ServerCounterTable())
        let inbox = Inbox()
        let fed = FedSession(host: host) { inbox.pending.append($0) }
        var out: [UInt8] = []
        fed.receive(#"{"jsonrpc":"2.0","id":1,"method":"slow"}"# + "\n")
        _ = fed.answer(into: &out)
        #expect(out.isEmpty && fed.session.isWaiting)
        fed.session.notifications.post(Self.notification("n"), key: .init(group: "s1", item: "a"))
        _ = fed.answer(into: &out)
        #expect(String(decoding: out, as: UTF8.self) == Self.line("n"), "written while the request waits")
        #expect(fed.resume(inbox.pending.removeFirst(), into: &out))
        #expect(String(decoding: out, as: UTF8.self) == Self.line("n") + #"{"jsonrpc":"2.0","id":1,"result":"done"}"# + "\n")
    }
}
