import StopSheetCore
import Testing
@testable import StopSheetDaemon

@Suite struct RPCRequestTests {
    private func parse(_ line: String, maxDepth: Int = 64, maxBatch: Int = 64) -> RPCMessage? {
        RPCMessage.parse(Array(line.utf8), maxDepth: maxDepth, maxBatch: maxBatch)
    }

    /// The one error a line produces: code and echoed id.
    private func failure(_ line: String) -> (code: Int, id: JSON)? {
        failure(Array(line.utf8))
    }

    private func failure(_ bytes: [UInt8], maxBatch: Int = 64) -> (code: Int, id: JSON)? {
        guard case .single(.invalid(let error, let id))? = RPCMessage.parse(bytes, maxBatch: maxBatch) else { return nil }
        return (error.code, id)
    }

    @Test func validRequestsKeepIdLiteralsAndParams() {
        #expect(parse(#"{"jsonrpc":"2.0","id":1.50,"method":"m","params":{"a":1}}"#)
            == .single(.request(RPCRequest(id: .number("1.50"), method: "m", params: ["a": 1]))))
        #expect(parse(#"{"jsonrpc":"2.0","id":"x","method":"m","params":[1]}"#)
            == .single(.request(RPCRequest(id: "x", method: "m", params: [1]))))
        #expect(parse(#"{"jsonrpc":"2.0","id":12345678901234567890,"method":"m"}"#)
            == .single(.request(RPCRequest(id: .number("12345678901234567890"), method: "m"))))
        #expect(parse(#"{"jsonrpc":"2.0","id":null,"method":"m"}"#) == .single(.request(RPCRequest(id: .null, method: "m"))))
    }

    @Test func noIdMemberIsANotification() throws {
        guard case .single(.request(let request))? = parse(#"{"jsonrpc":"2.0","method":"m"}"#) else {
            Issue.record("not a request")
            return
        }
        #expect(request.isNotification)
    }

    @Test func blankLinesAreSkipped() {
        #expect(parse("") == nil)
        #expect(parse(" \t\r") == nil)
    }

    @Test func invalidJSONIsAParseErrorWithNullId() {
        for line in [#"{"jsonrpc":"2.0","id":1,"method":"m""#, "nope", #"{"a":1} x"#, "{'a':1}"] {
            let result = failure(line)
            #expect(result?.code == -32700, "\(line)")
            #expect(result?.id == .null)
        }
    }

    @Test func invalidUTF8IsAParseError() {
        var inString = Array(#"{"jsonrpc":"2.0","id":1,"method":"m","params":[""#.utf8)
        inString += [0xC3, 0x28]
        inString += Array(#""]}"#.utf8)
        #expect(failure(inString)?.code == -32700)
        #expect(failure([0xFF, 0xFE])?.code == -32700)
        #expect(failure(Array(#"{"id":1}"#.utf8) + [0x80])?.code == -32700)
    }

    @Test func nestingPastTheLimitIsAParseErrorAndNeverRecursesDeep() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(failure(deep)?.code == -32700)
        let objects = String(repeating: #"{"a":"#, count: 100_000)
        #expect(failure(objects)?.code == -32700)
        // 64 levels are fine: the request object plus 63 of params.
        let params = String(repeating: "[", count: 63) + String(repeating: "]", count: 63)
        #expect(failure(#"{"jsonrpc":"2.0","id":1,"method":"m","params":\#(params)}"#) == nil)
        let tooDeep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(failure(#"{"jsonrpc":"2.0","id":1,"method":"m","params":\#(tooDeep)}"#)?.code == -32700)
    }

    @Test func nonObjectsAreInvalidRequestsWithNullId() {
        for line in ["1", #""x""#, "null", "true"] {
            let result = failure(line)
            #expect(result?.code == -32600, "\(line)")
            #expect(result?.id == .null)
        }
    }

    @Test func badFieldsAreInvalidRequestsEchoingAValidId() {
        let cases: [(String, JSON)] = [
            (#"{"id":7,"method":"m"}"#, 7),
            (#"{"jsonrpc":"1.0","id":7,"method":"m"}"#, 7),
            (#"{"jsonrpc":2.0,"id":"s","method":"m"}"#, "s"),
            (#"{"jsonrpc":"2.0","id":7}"#, 7),
            (#"{"jsonrpc":"2.0","id":7,"method":1}"#, 7),
            (#"{"jsonrpc":"2.0","id":7,"method":"m","params":"x"}"#, 7),
            (#"{"jsonrpc":"2.0","id":7,"method":"m","params":3}"#, 7),
            (#"{"jsonrpc":"2.0","id":7,"method":"m","params":null}"#, 7),
            // No id member: not a notification either, since it is not a valid request.
            (#"{"jsonrpc":"2.0","method":1}"#, .null),
        ]
        for (line, id) in cases {
            let result = failure(line)
            #expect(result?.code == -32600, "\(line)")
            #expect(result?.id == id, "\(line)")
        }
    }

    @Test func idsOfAWrongTypeAreInvalidWithNullId() {
        for id in ["true", "{}", "[1]"] {
            let result = failure(#"{"jsonrpc":"2.0","id":\#(id),"method":"m"}"#)
            #expect(result?.code == -32600, "\(id)")
            #expect(result?.id == .null)
        }
    }

    @Test func emptyAndOversizedBatchesAreOneInvalidRequest() {
        #expect(failure("[]")?.code == -32600)
        #expect(failure(" [ ] ")?.id == .null)
        let element = #"{"jsonrpc":"2.0","id":1,"method":"m"}"#
        let batch = Array(("[" + Array(repeating: element, count: 5).joined(separator: ",") + "]").utf8)
        #expect(failure(batch, maxBatch: 4)?.code == -32600)
        #expect(failure(batch, maxBatch: 5) == nil)
    }

    @Test func batchElementsAreValidatedOneByOne() {
        let message = parse(#"[1,{"jsonrpc":"2.0","id":2,"method":"m"},{"jsonrpc":"2.0","method":"n"}]"#)
        guard case .batch(let entries)? = message else {
            Issue.record("not a batch")
            return
        }
        #expect(entries.count == 3)
        if case .invalid(let error, let id) = entries[0] {
            #expect(error.code == -32600)
            #expect(id == .null)
        } else {
            Issue.record("element 0 should be invalid")
        }
        #expect(entries[1] == .request(RPCRequest(id: 2, method: "m")))
        #expect(entries[2] == .request(RPCRequest(id: nil, method: "n")))
    }
}

/// The coding side: what a parsed line turns into on the wire.
@Suite struct RPCAnswerTests {
    private let context = RPCContext(peer: PeerCredentials(pid: 1, uid: 0, gid: 0))
    /// Fresh for each test (a suite instance per test): the error answers its lines wrote.
    private let counters = RequestCounters(Dispatcher())

    private var dispatcher: Dispatcher {
        var dispatcher = Dispatcher()
        dispatcher.register("echo") { params, _ in .result(params ?? .null) }
        dispatcher.register("boom") { _, _ in .error(.unknownStop("x")) }
        dispatcher.register("later") { _, _ in .later { _ in } }
        return dispatcher
    }

    /// The bytes written for one line when no `.later` is involved.
    private func answer(_ line: String) -> String {
        guard let message = RPCMessage.parse(Array(line.utf8)) else { return "" }
        var out: [UInt8] = []
        var answer = LineAnswer(message, counters: counters)
        guard case .finished = answer.advance(dispatcher, context: context, out: &out) else { return "<waiting>" }
        return String(decoding: out, as: UTF8.self)
    }

    @Test func resultBytesAreSplicedAroundTheIdAsSent() {
        #expect(answer(#"{"jsonrpc":"2.0","id":1.50,"method":"echo","params":{"a":[1,"é"]}}"#)
            == #"{"jsonrpc":"2.0","id":1.50,"result":{"a":[1,"é"]}}"# + "\n")
        var out: [UInt8] = []
        RPCResponse.append(id: "q", .result(Array("[true]".utf8)), to: &out)
        #expect(String(decoding: out, as: UTF8.self) == #"{"jsonrpc":"2.0","id":"q","result":[true]}"#)
    }

    @Test func errorsCarryCodeMessageAndData() {
        #expect(answer(#"{"jsonrpc":"2.0","id":"b","method":"boom"}"#)
            == #"{"jsonrpc":"2.0","id":"b","error":{"code":-32001,"message":"Unknown stop","data":"x"}}"# + "\n")
        #expect(answer(#"{"jsonrpc":"2.0","id":3,"method":"nope"}"#)
            == #"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found","data":"nope"}}"# + "\n")
    }

    @Test func notificationsAreNeverAnsweredEvenOnError() {
        #expect(answer(#"{"jsonrpc":"2.0","method":"echo"}"#) == "")
        #expect(answer(#"{"jsonrpc":"2.0","method":"nope"}"#) == "")
        #expect(answer(#"{"jsonrpc":"2.0","method":"boom"}"#) == "")
        #expect(answer(#"[{"jsonrpc":"2.0","method":"echo"},{"jsonrpc":"2.0","method":"nope"}]"#) == "")
        // What is not sent is not counted as an error answer.
        #expect(counters.errors.allSatisfy { $0.count == 0 })
    }

    @Test func batchesAnswerInOrderWithoutNotifications() {
        let line = #"[{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]},{"jsonrpc":"2.0","method":"echo"},2,"#
            + #"{"jsonrpc":"2.0","id":"z","method":"boom"}]"#
        let expected = #"[{"jsonrpc":"2.0","id":1,"result":[1]},"#
            + #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request","data":"a request must be an object"}},"#
            + #"{"jsonrpc":"2.0","id":"z","error":{"code":-32001,"message":"Unknown stop","data":"x"}}]"# + "\n"
        #expect(answer(line) == expected)
        let errors = Dictionary(uniqueKeysWithValues: counters.errors.map { ($0.code ?? 0, $0.count) })
        #expect(errors.filter { $0.value != 0 } == [-32600: 1, -32001: 1])
    }

    @Test func aLaterInsideABatchCompletesTheLineWhenResumed() {
        let line = #"[{"jsonrpc":"2.0","id":1,"method":"later"},{"jsonrpc":"2.0","id":2,"method":"echo","params":[2]},"#
            + #"{"jsonrpc":"2.0","method":"later"},{"jsonrpc":"2.0","id":3,"method":"later"}]"#
        var answer = LineAnswer(RPCMessage.parse(Array(line.utf8))!, counters: counters)
        var out: [UInt8] = []
        var replies: [RPCReply] = [.result(.string("one")), .result(.string("ignored")), .error(.notLoaded("three"))]
        while case .waiting = answer.advance(dispatcher, context: context, out: &out) {
            #expect(!out.contains(UInt8(ascii: "\n")), "the line must not end before every part is done")
            answer.resume(with: replies.removeFirst(), out: &out)
        }
        #expect(replies.isEmpty)
        #expect(String(decoding: out, as: UTF8.self)
            == #"[{"jsonrpc":"2.0","id":1,"result":"one"},{"jsonrpc":"2.0","id":2,"result":[2]},"#
            + #"{"jsonrpc":"2.0","id":3,"error":{"code":-32005,"message":"Data not loaded","data":"three"}}]"# + "\n")
    }

    @Test func aLaterCompletingWithAnotherLaterIsAnInternalError() {
        var answer = LineAnswer(RPCMessage.parse(Array(#"{"jsonrpc":"2.0","id":1,"method":"later"}"#.utf8))!, counters: counters)
        var out: [UInt8] = []
        guard case .waiting = answer.advance(dispatcher, context: context, out: &out) else {
            Issue.record("expected to wait")
            return
        }
        answer.resume(with: .later { _ in }, out: &out)
        guard case .finished = answer.advance(dispatcher, context: context, out: &out) else {
            Issue.record("expected to finish")
            return
        }
        #expect(String(decoding: out, as: UTF8.self).contains(#""code":-32603"#))
    }

    @Test func wholeLineFailuresAreOneErrorObjectNotAnArray() {
        #expect(answer("[]") == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request","data":"empty batch"}}"# + "\n")
        #expect(answer("[").hasPrefix(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"#))
    }
}
