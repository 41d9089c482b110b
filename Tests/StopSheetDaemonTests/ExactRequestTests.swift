import StopSheetCore
import Testing
@testable import StopSheetDaemon

/// The exact-bytes matcher must accept only lines `CompactRequest` accepts, with the same
/// reading, and so (by `CompactRequestTests`) only lines the general parser reads the same way.
@Suite struct ExactRequestTests {
    private let exact = ExactRequest(method: "stopSheet", paramName: "stopId")

    private func match(_ line: [UInt8]) -> (id: String, value: String)? {
        line.withUnsafeBytes { bytes in
            exact.match(bytes).map { (String(decoding: bytes[$0.id], as: UTF8.self), String(decoding: bytes[$0.value], as: UTF8.self)) }
        }
    }

    /// Accepted or declined, never read differently from the compact and general parsers.
    private func expectAgreement(_ line: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let (id, value) = match(line) else { return false }
        let text = String(decoding: line, as: UTF8.self)
        guard let compact = line.withUnsafeBytes({ CompactRequest.parse($0) }) else {
            Issue.record("compact declines what exact accepts: \(text)", sourceLocation: sourceLocation)
            return true
        }
        // The id token's bytes are its encoding: what the answer's envelope would write.
        #expect(compact.id.encodedString == id, "\(text)", sourceLocation: sourceLocation)
        #expect(compact.method == "stopSheet" && compact.paramName == "stopId" && compact.paramValue == value, "\(text)",
                sourceLocation: sourceLocation)
        #expect(RPCMessage.parse(line) == .single(.request(compact.request)), "\(text)", sourceLocation: sourceLocation)
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
            // valid JSON-RPC, other spellings: the compact path's business
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
    /// still accepts, both other parsers read the same request.
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

    /// The answer line written from the id's bytes is the one the other paths write.
    @Test func theAnswerLineMatchesTheGeneralEnvelope() {
        let result = Array(#"{"stopType":"train"}"#.utf8)
        for token in ["1", "0", "-17", "123456789012345678901234567890", #""abc-1""#, #""""#] {
            let id = try! JSONParser.parse(Array(token.utf8))
            var general: [UInt8] = []
            RPCResponse.appendLine(id: id, reply: .result(result), to: &general)
            var fast: [UInt8] = []
            Array(token.utf8).withUnsafeBytes { RPCResponse.appendResultLine(encodedID: $0, result: result, to: &fast) }
            #expect(fast == general, "\(token)")
        }
    }

    /// The stopSheet shortcut answers known decimal ids with the general handler's bytes, and
    /// leaves everything else to the other paths.
    @Test func stopSheetShortcutAnswersLikeTheGeneralHandler() {
        let store = Store(alertsSource: "test:alerts", stationsSource: "test:stations", now: Instant(secondsSince1970: 0))
        let service = StopSheetService(store: store, refreshers: [], connections: { 0 })
        func fast(_ stopID: String) -> [UInt8]? { Array(stopID.utf8).withUnsafeBytes { service.knownStopSheet(decimalStopID: $0) } }
        let ids = ["40380", "30074", "30075", "0", "1", "040380", "40380 ", "4038a", "49999", "x", "", "12345678901234567890", "18446744073709551616"]
        for stopID in ids { #expect(fast(stopID) == nil, "before stations load: \(stopID)") }
        let platforms = [
            Platform(stopID: "30074", stationID: "40380", stationName: "Clark/Lake", routes: [.blue], stepFree: true),
            Platform(stopID: "30075", stationID: "40380", stationName: "Clark/Lake", routes: [.blue], stepFree: false),
            Platform(stopID: "1", stationID: "0", stationName: "Zero", routes: [.red], stepFree: nil),
            Platform(stopID: "abc", stationID: "40381", stationName: "Letters", routes: [.red], stepFree: nil),
        ]
        store.install(stations: StationDirectory(platforms: platforms), at: Instant(secondsSince1970: 0))
        for stopID in ids + ["abc", "40381"] {
            let general = try? service.stopSheet(["stopId": .string(stopID)])
            if let answer = fast(stopID) {
                #expect(answer == general, "\(stopID)")
            } else {
                // Declined: an unknown id (the general path explains) or one that is not a
                // canonical decimal (the general path answers it).
                let canonical = stopID.utf8.count <= 18 && UInt64(stopID).map(String.init) == stopID
                #expect(general == nil || !canonical, "\(stopID)")
            }
        }
        #expect(fast("40380") != nil && fast("30075") != nil && fast("0") != nil && fast("1") != nil)
    }

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

    @Test func registeringTheGeneralHandlerAgainDropsTheExactShortcut() {
        var dispatcher = Dispatcher()
        dispatcher.register("stopSheet") { _, _ in .result([]) }
        dispatcher.registerExact("stopSheet", param: "stopId") { _ in [] }
        #expect(dispatcher.exact?.request.method == "stopSheet")
        dispatcher.register("version") { _, _ in .result([]) }
        #expect(dispatcher.exact != nil)
        dispatcher.register("stopSheet") { _, _ in .result([]) }
        #expect(dispatcher.exact == nil)
    }
}
