import StopSheetCore
import StopSheetProtocol
import Testing
@testable import StopSheetDaemon

/// The session without a socket: lines in, answer bytes out, deferred answers resumed by token.
@Suite struct SessionTests {
    /// Resumptions the session hands back; the test is the loop thread.
    final class Inbox: @unchecked Sendable {
        var pending: [Session.Resumption] = []
    }

    /// `slow` answers `.later`; the completion is kept until the test resumes it.
    private func makeHost(maxLineBytes: Int = 1 << 20) -> SessionHost {
        var dispatcher = Dispatcher()
        dispatcher.register("echo") { params, _ in .result(params ?? .null) }
        dispatcher.register("slow") { _, _ in .later { complete in complete(.result(.string("done"))) } }
        dispatcher.registerExact("echo", param: "k") { value, _ in .result(["k": .string(value)]) }
        var limits = ServerLimits()
        limits.maxLineBytes = maxLineBytes
        return SessionHost(dispatcher: dispatcher, limits: limits, counters: ServerCounterTable())
    }

    private func answers(_ fed: FedSession, _ text: String, inputEnded: Bool = false) -> String {
        var out: [UInt8] = []
        fed.receive(text)
        _ = fed.answer(into: &out, inputEnded: inputEnded)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func theFastPathAndTheGeneralPathWriteTheSameLine() {
        let session = FedSession(host: makeHost())
        let fast = answers(session, #"{"jsonrpc":"2.0","id":7,"method":"echo","params":{"k":"v"}}"# + "\n")
        let general = answers(session, #"{ "jsonrpc":"2.0","id":7,"method":"echo","params":{"k":"v"}}"# + "\n")
        #expect(fast == #"{"jsonrpc":"2.0","id":7,"result":{"k":"v"}}"# + "\n")
        #expect(general == fast)
    }

    /// A connection turned away is told why in its own words, whichever limit it met (the
    /// common one's line is made once), each counted among the -32004 answers.
    @Test func eachRefusalLineSaysItsOwnReason() throws {
        let host = makeHost()
        let refusals: [ConnectionRefusal] = [.full, .reserved(8), .perUID(1000, limit: 32), .full]
        for refusal in refusals {
            let line = try JSONParser.parse(String(decoding: Session.refusalLine(refusal, host: host), as: UTF8.self))
            #expect(line["error"]?["code"] == -32004 && line["error"]?["data"] == .string(refusal.reason), "\(line.encodedString)")
        }
        #expect(host.requests.errors.filter { $0.count > 0 }.map { [$0.code, $0.count] } == [[-32004, refusals.count]])
    }

    /// A line that starts as the exact route's and whose string id never closes has no id to
    /// answer with: the general parser's -32700, read from the line's bytes and none past them.
    @Test func aLineWhoseStringIDNeverClosesIsAParseError() throws {
        let session = FedSession(host: makeHost())
        let answer = answers(session, #"{"jsonrpc":"2.0","id":""# + String(repeating: "a", count: 100) + "\n")
        #expect(try JSONParser.parse(answer)["error"]?["code"] == -32700, "\(answer)")
    }

    @Test func aBatchWaitsOnItsLaterAndResumesInOrder() {
        let inbox = Inbox()
        let fed = FedSession(host: makeHost()) { inbox.pending.append($0) }
        let session = fed.session
        var out: [UInt8] = []
        let batch = #"[{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]},{"jsonrpc":"2.0","id":2,"method":"slow"}]"# + "\n"
        let after = #"{"jsonrpc":"2.0","id":3,"method":"echo","params":[3]}"# + "\n"
        fed.receive(batch + after)
        #expect(!fed.answer(into: &out))
        #expect(session.isWaiting && !session.atLineBoundary && inbox.pending.count == 1)
        #expect(String(decoding: out, as: UTF8.self) == #"[{"jsonrpc":"2.0","id":1,"result":[1]}"#)

        let resumption = inbox.pending.removeFirst()
        #expect(fed.resume(resumption, into: &out))
        #expect(!fed.resume(resumption, into: &out), "a second completion is stale")
        #expect(!session.isWaiting && session.atLineBoundary)
        _ = fed.answer(into: &out)
        #expect(String(decoding: out, as: UTF8.self) == #"[{"jsonrpc":"2.0","id":1,"result":[1]},{"jsonrpc":"2.0","id":2,"result":"done"}]"#
            + "\n" + #"{"jsonrpc":"2.0","id":3,"result":[3]}"# + "\n")
        #expect(!fed.input.hasBufferedBytes)
    }

    @Test func answeringStopsAtTheOutputLimitAndGoesOnLater() {
        let fed = FedSession(host: makeHost())
        let line = #"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"k":"v"}}"# + "\n"
        fed.receive(line + line)
        var out: [UInt8] = []
        #expect(fed.answer(into: &out, outputLimit: 0), "full after the first answer")
        let first = out.count
        #expect(first > 0 && fed.input.hasBufferedBytes)
        #expect(!fed.answer(into: &out))
        #expect(out.count == 2 * first)
    }

    @Test func anOverlongLineIsAnsweredAndCounted() {
        let host = makeHost(maxLineBytes: 64)
        let session = FedSession(host: host)
        let answer = answers(session, String(repeating: "x", count: 100) + "\n")
        #expect(answer == String(decoding: host.tooLargeLine, as: UTF8.self))
        #expect(answers(session, "{", inputEnded: true).contains(#""code":-32700"#), "the last line without newline counts at end of input")
        #expect(host.requests.errors.filter { $0.count > 0 }.map(\.code) == [-32700, -32003])
    }

    @Test func requestsCountPerRegisteredMethodOnBothPathsAndNeverByAClientsName() {
        let host = makeHost()
        let session = FedSession(host: host)
        let fast = #"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"k":"v"}}"# + "\n"
        let general = #"{"jsonrpc":"2.0","method":"echo","params":[1]}"# + "\n"  // a notification counts too
        let strangers = (0..<50).map { #"{"jsonrpc":"2.0","id":2,"method":"m\#($0)"}"# + "\n" }.joined()
        let input = fast + fast + general + strangers
        let output = answers(session, input)
        #expect(host.requests.requests.map(\.method) == ["echo", "slow", "unknown"], "no key from a client's string")
        #expect(host.requests.requests.map(\.count) == [3, 0, 50])
        #expect(host.requests.errors.filter { $0.count > 0 }.map { [$0.code, $0.count] } == [[-32601, 50]])
        #expect(host.counters[.bytesOut].count == output.utf8.count)
    }

    // MARK: - Replies reused within a round (ExactReplies)

    /// What the exact route's handler saw, and the stamp it is registered with.
    final class RouteLog: @unchecked Sendable {
        var calls: [String] = []
        var stamp: UInt64 = 0
    }

    /// `look` answers `{"k": <value>, "call": <n>}`, so a reused reply shows by its call number;
    /// the value `bad` is an error. With `stamped`, the route's stamp is `log.stamp`.
    private func routeHost(_ log: RouteLog, stamped: Bool = true) -> SessionHost {
        var dispatcher = Dispatcher()
        dispatcher.register("look") { _, _ in .result(.null) }
        let stamp: @Sendable () -> UInt64 = { log.stamp }
        dispatcher.registerExact("look", param: "k", stamp: stamped ? stamp : nil) { value, _ -> RPCReply in
            log.calls.append(value)
            if value == "bad" { return .error(RPCError.invalidParams("bad k")) }
            let result: JSON = ["k": .string(value), "call": .int(log.calls.count)]
            return .result(result)
        }
        return SessionHost(dispatcher: dispatcher, limits: ServerLimits(), counters: ServerCounterTable())
    }

    private func look(_ id: Int, _ value: String) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"look","params":{"k":"\#(value)"}}"# + "\n"
    }

    private func answers(_ fed: FedSession, _ text: String, round: Int64) -> [String] {
        var out: [UInt8] = []
        fed.receive(text)
        _ = fed.answer(into: &out, now: round)
        return String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func aRoundAnswersTheSameLineOnceEachWithItsOwnID() {
        let log = RouteLog()
        let host = routeHost(log)
        let fed = FedSession(host: host)
        let round = FedSession.newRound()
        let lines = answers(fed, look(1, "a") + look(2, "a") + look(3, "b") + look(4, "a"), round: round)
        #expect(lines == [#"{"jsonrpc":"2.0","id":1,"result":{"k":"a","call":1}}"#, #"{"jsonrpc":"2.0","id":2,"result":{"k":"a","call":1}}"#,
                          #"{"jsonrpc":"2.0","id":3,"result":{"k":"b","call":2}}"#, #"{"jsonrpc":"2.0","id":4,"result":{"k":"a","call":1}}"#])
        #expect(log.calls == ["a", "b"])
        // Another session of the same loop, in the same round: the same reply.
        let other = FedSession(host: host)
        #expect(answers(other, look(5, "a"), round: round) == [#"{"jsonrpc":"2.0","id":5,"result":{"k":"a","call":1}}"#])
        #expect(host.requests.exactMethod.count == 5, "every answer counts as a request")
    }

    @Test func aNewRoundOrANewStampAsksAgain() {
        let log = RouteLog()
        let fed = FedSession(host: routeHost(log))
        let round = FedSession.newRound()
        _ = answers(fed, look(1, "a"), round: round)
        log.stamp += 1
        #expect(answers(fed, look(2, "a"), round: round) == [#"{"jsonrpc":"2.0","id":2,"result":{"k":"a","call":2}}"#], "the data changed")
        #expect(answers(fed, look(3, "a"), round: FedSession.newRound()) == [#"{"jsonrpc":"2.0","id":3,"result":{"k":"a","call":3}}"#],
                "the clock moved on")
        #expect(log.calls == ["a", "a", "a"])
    }

    @Test func errorsAndUnstampedRoutesAreAnsweredEachTime() {
        let log = RouteLog()
        let host = routeHost(log)
        let fed = FedSession(host: host)
        let lines = answers(fed, look(1, "bad") + look(2, "bad"), round: FedSession.newRound())
        #expect(lines.count == 2 && lines.allSatisfy { $0.contains(#""code":-32602"#) })
        #expect(log.calls == ["bad", "bad"])
        #expect(host.requests.errors.filter { $0.count > 0 }.map { [$0.code, $0.count] } == [[-32602, 2]], "each error counted")

        let unstamped = RouteLog()
        let plain = FedSession(host: routeHost(unstamped, stamped: false))
        _ = answers(plain, look(1, "a") + look(2, "a"), round: FedSession.newRound())
        #expect(unstamped.calls == ["a", "a"])
    }

    @Test func aLineThatDiffersAfterItsIDIsNotTheSameRequest() {
        let log = RouteLog()
        let fed = FedSession(host: routeHost(log))
        let round = FedSession.newRound()
        let spaced = #"{"jsonrpc":"2.0","id":2,"method":"look","params":{"k":"a"} }"# + "\n"  // general path
        let lines = answers(fed, look(1, "a") + spaced + look(3, "ab"), round: round)
        #expect(lines == [#"{"jsonrpc":"2.0","id":1,"result":{"k":"a","call":1}}"#, #"{"jsonrpc":"2.0","id":2,"result":null}"#,
                          #"{"jsonrpc":"2.0","id":3,"result":{"k":"ab","call":2}}"#])
    }
}
