import Foundation
import Synchronization
import Testing
@testable import StopSheetDaemon

/// The serving loop with a handler that knows no JSON-RPC, over a real socket: what the loop
/// does (framing, order, deferred answers, refusals, the byte count, the end of a connection) is
/// its own, whatever the protocol.
@Suite struct EventLoopTests {
    /// Each line back as `echo <line>`; the line `later` is answered from another thread as
    /// `done later`, the way a deferred answer comes back.
    final class EchoLines: ConnectionHandler {
        final class Host: Sendable {
            let ended = Atomic<Int>(0)
        }

        struct Resumption: Sendable {
            let token: Int
            let line: String
        }

        private let host: Host
        private let resume: @Sendable (Resumption) -> Void
        private var waitingFor: Int?
        private var lastToken = 0

        init(peer: PeerCredentials, host: Host, resume: @escaping @Sendable (Resumption) -> Void, wake: @escaping () -> Void) {
            self.host = host
            self.resume = resume
        }

        static func refusalLine(_ refusal: ConnectionRefusal, host: Host) -> [UInt8] { Array("refused: \(refusal.reason)\n".utf8) }

        func answer(_ input: inout LineFramer, into output: inout OutputBuffer, outputLimit: Int, inputEnded: Bool, now: Int64) -> Bool {
            while waitingFor == nil {
                guard output.count <= outputLimit else { return true }
                guard let event = input.next() ?? (inputEnded ? input.finish() : nil) else { return false }
                guard case .line(let range) = event else {
                    output.write(Array("too long\n".utf8))
                    continue
                }
                let line = String(decoding: input.buffer[range], as: UTF8.self)
                guard line == "later" else {
                    output.write(Array("echo \(line)\n".utf8))
                    continue
                }
                lastToken += 1
                waitingFor = lastToken
                let (resume, token) = (resume, lastToken)
                Thread { resume(Resumption(token: token, line: line)) }.start()
            }
            return false
        }

        func resume(_ resumption: Resumption, into output: inout OutputBuffer) -> Bool {
            guard resumption.token == waitingFor else { return false }
            waitingFor = nil
            output.write(Array("done \(resumption.line)\n".utf8))
            return true
        }

        var isWaiting: Bool { waitingFor != nil }

        func end() { host.ended.add(1, ordering: .relaxed) }
    }

    private func echoServer(_ limits: ServerLimits = ServerLimits(), host: EchoLines.Host) throws -> TestServer {
        try TestServer(limits: limits, serve: { server throws(ServerError) in try server.run(EchoLines.self, host: host) })
    }

    @Test func aHandlerOtherThanTheSessionIsServedInOrderDeferredAnswersIncluded() throws {
        let host = EchoLines.Host()
        let harness = try echoServer(host: host)
        defer { #expect(harness.finish()) }
        let client = try harness.client()
        let sent = "a\nlater\nb\r\nlast"
        #expect(client.send(Array(sent.utf8)))
        client.shutdownWrite()
        let lines = (0..<4).map { _ in client.readLine() ?? "(\(client.lastReadFailure ?? "?"))" }
        #expect(lines == ["echo a", "done later", "echo b", "echo last"], "in request order; the last line counts at end of input")
        #expect(client.waitForClose(), "answered and ended: closed")
        #expect(harness.server.counters[.bytesIn] == sent.utf8.count, "the loop counts what it reads: \(harness.server.counters)")
        // Told before the loop closes the socket, so before the client saw its end.
        #expect(host.ended.load(ordering: .relaxed) == 1, "the handler is told its connection ended")
        #expect(harness.server.counters[.closedFinished] == 1, "\(harness.server.counters)")
    }

    @Test func aConnectionTurnedAwayGetsTheHandlersRefusalLine() throws {
        var limits = ServerLimits()
        limits.maxConnections = 1
        let harness = try echoServer(limits, host: EchoLines.Host())
        defer { #expect(harness.finish()) }
        let first = try harness.client()
        #expect(first.send(line: "here"))
        #expect(first.readLine() == "echo here")
        let second = try harness.client()
        #expect(second.readLine() == "refused: too many connections", "\(second.lastReadFailure ?? "")")
        #expect(second.waitForClose())
        #expect(harness.server.counters[.refusedBusy] == 1)
    }

    /// A stop ends the loop as soon as no connection is left, not at the drain's deadline: with
    /// an hour's drain, a quiet client is closed once the grace is over and the loop returns.
    @Test func aStopReturnsOnceNoConnectionIsLeftNotAtTheDrainsDeadline() throws {
        var limits = ServerLimits()
        limits.drainTimeout = .seconds(3600)
        let harness = try echoServer(limits, host: EchoLines.Host())
        defer { #expect(harness.finish()) }
        let client = try harness.client()
        #expect(client.send(line: "a") && client.readLine() == "echo a")
        harness.server.stop()
        #expect(harness.waitUntilStopped(), "returned with its last connection closed, within the drain")
        #expect(client.waitForClose())
    }

    /// Over the budget a connection is answered one line at a time, each sent before the next
    /// (its allowance is 0): lines it sent in one write are all answered in that service, while
    /// its socket takes what it is sent, not one per later event. The tick, which would let a
    /// stalled connection through, is an hour away, so nothing else answers them.
    @Test func overTheBudgetLinesAlreadyReadAreAnsweredOneAfterAnother() throws {
        var limits = ServerLimits()
        (limits.maxBufferedBytes, limits.tickInterval) = (64, .seconds(3600))
        let harness = try echoServer(limits, host: EchoLines.Host())
        defer { #expect(harness.finish()) }
        let holder = try harness.client()
        defer { holder.close() }
        // A line answered, then part of one that holds the total over the budget.
        #expect(holder.send(Array(("hello\n" + String(repeating: "x", count: 100)).utf8)) && holder.readLine() == "echo hello")
        let client = try harness.client()
        defer { client.close() }
        let lines = (1...10).map { "line \($0)" }
        #expect(client.send(Array(lines.map { $0 + "\n" }.joined().utf8)))
        let answers = lines.map { _ in client.readLine() ?? "(\(client.lastReadFailure ?? "nothing"))" }
        #expect(answers == lines.map { "echo \($0)" })
    }

    /// More connections ready at once than one `epoll_wait` reports (its 256 events): the loop
    /// handles the events it was given, no more, and the rest in the next round; each client is
    /// answered. The loop is held on a posted piece of work while every client sends, so all of
    /// them are ready in the round after it.
    @Test func moreConnectionsReadyThanOneWaitReportsAreAllServed() throws {
        let harness = try echoServer(host: EchoLines.Host())
        defer { #expect(harness.finish()) }
        let clients = try (0..<300).map { _ in try harness.client() }
        for (index, client) in clients.enumerated() {
            #expect(client.send(line: "hello \(index)") && client.readLine() == "echo hello \(index)")
        }
        let (holding, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        harness.server.post {
            holding.signal()
            release.wait()
        }
        #expect(holding.wait(timeout: .now() + patience) == .success, "the loop took the posted work")
        for client in clients { #expect(client.send(line: "again")) }
        release.signal()
        let answered = clients.filter { $0.readLine() == "echo again" }.count
        #expect(answered == clients.count)
    }

    /// The loop sleeps until the first of its times: the next tick, unless accepting resumes, the
    /// grace ends or the drain ends sooner; a time not set never counts. The wait is in whole
    /// milliseconds, rounded up, so the loop never wakes before the time.
    @Test func theLoopWaitsUntilTheFirstOfItsTimesRoundedUpToAMillisecond() {
        typealias Loop = EventLoop<EchoLines>
        #expect(Loop.earliest(50, nil, nil, nil) == 50)
        #expect(Loop.earliest(50, 40, nil, nil) == 40 && Loop.earliest(50, nil, 30, nil) == 30 && Loop.earliest(50, nil, nil, 20) == 20)
        #expect(Loop.earliest(50, 60, 70, 80) == 50, "each later than the tick")
        #expect(Loop.earliest(50, 45, 35, 40) == 35 && Loop.earliest(50, 35, 45, 40) == 35 && Loop.earliest(50, 45, 40, 35) == 35)
        #expect(Loop.waitMilliseconds(from: 0, until: 1) == 1 && Loop.waitMilliseconds(from: 0, until: 1_000_000) == 1)
        #expect(Loop.waitMilliseconds(from: 5, until: 1_000_006) == 2 && Loop.waitMilliseconds(from: 0, until: 1 << 60) == .max, "clamped")
    }
}
