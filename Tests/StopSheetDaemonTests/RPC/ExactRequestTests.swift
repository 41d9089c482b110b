import StopSheetCore
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// The exact-bytes matcher must accept only lines the general parser reads as the same request,
/// and its handler must reply as the general handler does: one request path, one params rule.
@Suite struct ExactRequestTests {
    private let exact = ExactRequest(method: "stopSheet", paramName: "stopId")

    private func match(_ line: [UInt8]) -> (id: String, value: String)? {
        line.withUnsafeBytes { bytes in
            exact.match(bytes).map { (String(decoding: bytes[$0.id], as: UTF8.self), String(decoding: bytes[$0.value], as: UTF8.self)) }
        }
    }

    /// Accepted or declined, never read differently from the general parser.
    private func expectAgreement(_ line: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let (id, value) = match(line) else { return false }
        let text = String(decoding: line, as: UTF8.self)
        guard case .single(.request(let request))? = RPCMessage.parse(line), let parsedID = request.id else {
            Issue.record("the general parser reads no request with an id where exact accepts: \(text)", sourceLocation: sourceLocation)
            return true
        }
        // The id token's bytes are its encoding: what the answer's envelope would write.
        #expect(parsedID.encodedString == id, "\(text)", sourceLocation: sourceLocation)
        #expect(request == RPCRequest(id: parsedID, method: "stopSheet", params: ["stopId": .string(value)]), "\(text)", sourceLocation: sourceLocation)
        return true
    }

    @Test func theExactLineIsAcceptedWithItsIdAndValue() {
        let accepted: [(String, String, String)] = [
            (#"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"}}"#, "1", "40380"),
            (#"{"jsonrpc":"2.0","id":0,"method":"stopSheet","params":{"stopId":"30074"}}"#, "0", "30074"),
            (#"{"jsonrpc":"2.0","id":-0,"method":"stopSheet","params":{"stopId":"40380"}}"#, "-0", "40380"),
            (#"{"jsonrpc":"2.0","id":-17,"method":"stopSheet","params":{"stopId":"40380"}}"#, "-17", "40380"),
            (#"{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"stopSheet","params":{"stopId":"40380"}}"#,
             "123456789012345678901234567890", "40380"),
            (#"{"jsonrpc":"2.0","id":"abc-1","method":"stopSheet","params":{"stopId":"40380"}}"#, #""abc-1""#, "40380"),
            (#"{"jsonrpc":"2.0","id":"","method":"stopSheet","params":{"stopId":""}}"#, #""""#, ""),
            (#"{"jsonrpc":"2.0","id":"}}","method":"stopSheet","params":{"stopId":"x y ~"}}"#, #""}}""#, "x y ~"),
        ]
        for (line, id, value) in accepted {
            let bytes = Array(line.utf8)
            #expect(match(bytes)?.id == id && match(bytes)?.value == value, "\(line)")
            #expect(expectAgreement(bytes), "\(line)")
        }
    }

    @Test func everyOtherSpellingIsDeclined() {
        let declined = [
            "",
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":""#,
            #"{"jsonrpc":"2.0","id":"#,
            #"{"jsonrpc":"2.0","id":"1"#,
            #"{"jsonrpc":"2.0","id":"1,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            // valid JSON-RPC, other spellings: the general parser's business
            #"{"jsonrpc": "2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"} }"#,
            #" {"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"}} "#,
            #"{"jsonrpc":"2.0","id":1 ,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"id":1,"jsonrpc":"2.0","method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":1,"params":{"stopId":"40380"},"method":"stopSheet"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"4038\u0030"}}"#,
            #"{"jsonrpc":"2.0","id":"\u0031","method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":40380}}"#,
            #"{"jsonrpc":"2.0","id":null,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","method":"stopSheet","params":{"stopId":"40380"}}"#,
            // other methods, params and members
            #"{"jsonrpc":"2.0","id":1,"method":"station","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopID":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380","stopType":"bus"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"},"params":{"stopId":"1"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"}}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40"}}"}}"#,
            // numbers other than plain integers
            #"{"jsonrpc":"2.0","id":01,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":1.0,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":1e3,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":-,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":+1,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            // bytes that are not plain ASCII
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"stopSheet\",\"params\":{\"stopId\":\"40\u{1}380\"}}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"stopSheet\",\"params\":{\"stopId\":\"40\u{7f}380\"}}",
            "{\"jsonrpc\":\"2.0\",\"id\":\"é\",\"method\":\"stopSheet\",\"params\":{\"stopId\":\"40380\"}}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"stopSheet\",\"params\":{\"stopId\":\"é\"}}",
        ]
        for line in declined { #expect(match(Array(line.utf8)) == nil, "\(line)") }
    }

    /// Random byte edits of the exact line, and of lines with string ids: wherever the matcher
    /// still accepts, the general parser reads the same request.
    @Test func mutationsNeverMakeTheParsersDisagree() {
        let bases = [
            Array(#"{"jsonrpc":"2.0","id":12,"method":"stopSheet","params":{"stopId":"40380"}}"#.utf8),
            Array(#"{"jsonrpc":"2.0","id":"a","method":"stopSheet","params":{"stopId":"30074"}}"#.utf8),
        ]
        var generator = SystemRandomNumberGenerator()
        var accepted = 0
        for round in 0..<40_000 {
            let line = mutated(bases[round % bases.count], using: &generator)
            if expectAgreement(line) { accepted += 1 }
        }
        #expect(accepted > 100)
    }

    /// The answer line written from the id's bytes is the one the general path writes.
    @Test func theAnswerLineMatchesTheGeneralEnvelope() {
        let replies: [RPCReply] = [.result(Array(#"{"stopType":"train"}"#.utf8)), .error(.unknownStop("49999"))]
        for token in ["1", "0", "-17", "123456789012345678901234567890", #""abc-1""#, #""""#] {
            let id = try! JSONParser.parse(Array(token.utf8))
            for reply in replies {
                var general: [UInt8] = []
                RPCResponse.appendLine(id: id, reply: reply, to: &general)
                var fast: [UInt8] = []
                Array(token.utf8).withUnsafeBytes { RPCResponse.appendLine(encodedID: $0, reply: reply, to: &fast) }
                #expect(fast == general, "\(token)")
            }
        }
    }

    /// The stopSheet shortcut replies as the general handler does for `{"stopId": value}`, for
    /// known, platform, unknown, empty and over-long ids, before and after stations load: both
    /// build a `StopSheetQuery`, so both apply the same rules.
    @Test func stopSheetShortcutAnswersLikeTheGeneralHandler() throws {
        let store = Store(alertsSource: "test:alerts", stationsSource: "test:stations", clock: .fixed(Instant(secondsSince1970: 0)), zones: .cta)
        var dispatcher = Dispatcher()
        StopSheetService(store: store, refreshers: [], connections: { 0 }, clock: store.clock).register(in: &dispatcher)
        let exact = try #require(dispatcher.exact)
        #expect(exact.request.method == "stopSheet" && exact.request.paramName == "stopId")
        let context = RPCContext(peer: PeerCredentials(pid: 1, uid: 0, gid: 0))
        func line(_ reply: RPCReply) -> [UInt8] {
            var out: [UInt8] = []
            RPCResponse.appendLine(id: .number("1"), reply: reply, to: &out)
            return out
        }
        func expectSameReplies(_ when: String) {
            let ids = ["40380", "30074", "30075", "0", "1", "040380", "40380 ", "4038a", "49999", "x", "", "abc", "40381",
                       "12345678901234567890", "18446744073709551616", String(repeating: "7", count: 32), String(repeating: "7", count: 33)]
            for stopID in ids {
                let general = dispatcher.reply(to: RPCRequest(id: .number("1"), method: "stopSheet", params: ["stopId": .string(stopID)]), context: context)
                #expect(line(exact.handler(stopID, context)) == line(general), "\(when): \(stopID)")
            }
        }
        expectSameReplies("before stations load")
        let platforms = [
            Platform(stopID: "30074", stationID: "40380", stationName: "Clark/Lake", routes: [.blue], stepFree: true),
            Platform(stopID: "30075", stationID: "40380", stationName: "Clark/Lake", routes: [.blue], stepFree: false),
            Platform(stopID: "1", stationID: "0", stationName: "Zero", routes: [.red], stepFree: nil),
            Platform(stopID: "abc", stationID: "40381", stationName: "Letters", routes: [.red], stepFree: nil),
        ]
        store.install(stations: StationDirectory(platforms: platforms), at: Instant(secondsSince1970: 0))
        expectSameReplies("after stations load")
    }

    /// The stopSheet route's replies are reused within a round only while the store is unchanged:
    /// a change published between two answers of one round shows in the second.
    @Test func aChangeOfTheStoreWithinARoundShowsInTheNextAnswer() {
        let store = Store(alertsSource: "test:alerts", stationsSource: "test:stations", clock: .fixed(Instant(secondsSince1970: 0)), zones: .cta)
        var dispatcher = Dispatcher()
        StopSheetService(store: store, refreshers: [], connections: { 0 }, clock: .fixed(Instant(secondsSince1970: 10))).register(in: &dispatcher)
        let fed = FedSession(host: SessionHost(dispatcher: dispatcher, limits: ServerLimits(), counters: ServerCounterTable()))
        let round = FedSession.newRound()
        func answer(_ id: Int) -> String {
            var out: [UInt8] = []
            fed.receive(#"{"jsonrpc":"2.0","id":\#(id),"method":"stopSheet","params":{"stopId":"40380"}}"# + "\n")
            _ = fed.answer(into: &out, now: round)
            return String(decoding: out, as: UTF8.self)
        }
        let before = answer(1), again = answer(2)
        #expect(before.contains(#""stationName":"40380""#) && again == before.replacingOccurrences(of: #""id":1"#, with: #""id":2"#))
        let version = store.version
        store.install(stations: StationDirectory(platforms: [Platform(stopID: "30074", stationID: "40380", stationName: "Clark/Lake",
                                                                      routes: [.blue], stepFree: true)]), at: Instant(secondsSince1970: 0))
        #expect(store.version != version)
        #expect(answer(3).contains(#""stationName":"Clark/Lake""#), "the new stations, in the same round")
    }

    @Test func registeringTheGeneralHandlerAgainDropsTheExactShortcut() {
        var dispatcher = Dispatcher()
        dispatcher.register("stopSheet") { _, _ in .result([]) }
        dispatcher.registerExact("stopSheet", param: "stopId") { _, _ in .result([]) }
        #expect(dispatcher.exact?.request.method == "stopSheet")
        dispatcher.register("version") { _, _ in .result([]) }
        #expect(dispatcher.exact != nil)
        dispatcher.register("stopSheet") { _, _ in .result([]) }
        #expect(dispatcher.exact == nil)
    }
}

/// The same, against the real daemon.
@Suite struct ExactRequestIntegrationTests {
    /// End to end: the exact line and spellings that take the compact and general paths get the
    /// same bytes back, pipelined in order, for known, platform, unknown and integer ids.
    @Test func theDaemonAnswersEverySpellingWithTheSameBytes() throws {
        let daemon = try DaemonProcess(["--demo"])
        let client = try daemon.client()
        for (id, stop) in [("7", "40380"), (#""s""#, "30074"), ("-0", "49999"), ("8", "040380")] {
            let spellings = [
                #"{"jsonrpc":"2.0","id":\#(id),"method":"stopSheet","params":{"stopId":"\#(stop)"}}"#,
                #"{"jsonrpc":"2.0", "id":\#(id),"method":"stopSheet","params":{"stopId":"\#(stop)"}}"#,
                #"{"jsonrpc":"2.0","id":\#(id),"method":"stopSheet","params":{"stopId":"\#(stop)","stopType":"train"}}"#,
            ]
            #expect(client.send(Array(spellings.map { $0 + "\n" }.joined().utf8)))
            let answers = spellings.map { _ in client.readLine() }
            #expect(answers[0] != nil && answers.allSatisfy { $0 == answers[0] }, "\(answers)")
        }
    }
}
