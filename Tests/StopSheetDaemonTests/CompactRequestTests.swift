import StopSheetCore
import Testing
@testable import StopSheetDaemon

/// The fast request reader must agree with the general parser wherever it accepts a line, and
/// decline (nil) everything it cannot prove it reads the same way.
@Suite struct CompactRequestTests {
    private func compact(_ line: String) -> CompactRequest? {
        Array(line.utf8).withUnsafeBytes { CompactRequest.parse($0) }
    }

    private func general(_ line: String) -> RPCMessage? {
        RPCMessage.parse(Array(line.utf8))
    }

    /// Accepted, and the general parser builds the identical request.
    private func expectAccepted(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let fast = compact(line) else {
            Issue.record("declined: \(line)", sourceLocation: sourceLocation)
            return
        }
        #expect(general(line) == .single(.request(fast.request)), "\(line)", sourceLocation: sourceLocation)
    }

    @Test func theCommonShapesAreAcceptedAndMatchTheGeneralParser() {
        let accepted = [
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":0,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":-0,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":-17,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":"abc-1","method":"stopSheet","params":{"stopId":"30074"}}"#,
            #"{"jsonrpc":"2.0","id":"","method":"x","params":{"k":""}}"#,
            #"{"jsonrpc": "2.0", "id": 7, "method": "stopSheet", "params": {"stopId": "40380"}}"#,
            " \t{ \"jsonrpc\" : \"2.0\" ,\r\"id\":7,\"method\":\"stopSheet\",\"params\":{ \"stopId\" : \"40380\" } } \t",
            #"{"params":{"stopId":"40380"},"method":"stopSheet","id":9,"jsonrpc":"2.0"}"#,
            #"{"id":9,"jsonrpc":"2.0","params":{"stopId":"40380"},"method":"stopSheet"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"refresh","params":{"what":"alerts"}}"#,
            #"{"jsonrpc":"2.0","id":"a long string id well over fifteen bytes","method":"stopSheet","params":{"stopId":"4038040380403804038040380"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"~!@#$%^&*()_+{}[]:;'<>?,./ "}}"#,
        ]
        for line in accepted { expectAccepted(line) }
    }

    @Test func everythingElseIsDeclined() {
        let declined = [
            "",
            "   ",
            "[]",
            #"[{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"}}]"#,
            // escapes, non-ASCII, control characters: the general parser decodes those
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"4038\u0030"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stop\"Sheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":"\n","method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"json\u0072pc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"é"}}"#,
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"stopSheet\",\"params\":{\"stopId\":\"40\u{1}380\"}}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"stopSheet\",\"params\":{\"stopId\":\"40\u{7f}380\"}}",
            // numbers other than plain integers
            #"{"jsonrpc":"2.0","id":1.0,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":1e3,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":01,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":-,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":+1,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":40380}}"#,
            // other id types, a notification
            #"{"jsonrpc":"2.0","id":null,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":true,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","method":"stopSheet","params":{"stopId":"40380"}}"#,
            // duplicate, missing, extra or wrong members
            #"{"jsonrpc":"2.0","id":1,"id":2,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"a","method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"1"},"params":{"stopId":"2"}}"#,
            #"{"id":1,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"1.0","id":1,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":2.0,"id":1,"method":"stopSheet","params":{"stopId":"40380"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":["40380"]}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380","stopType":"bus"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"},"extra":1}"#,
            #"{"jsonrpc":"2.0","id":1,"method":7,"params":{"stopId":"40380"}}"#,
            // broken JSON
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"}}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"}} x"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"},}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380}}"#,
            "\u{FEFF}{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"stopSheet\",\"params\":{\"stopId\":\"40380\"}}",
            "{\"jsonrpc\":\"2.0\",\u{0C}\"id\":1,\"method\":\"stopSheet\",\"params\":{\"stopId\":\"40380\"}}",
        ]
        for line in declined { #expect(compact(line) == nil, "\(line)") }
    }

    /// Random byte edits of the common line: wherever the reader still accepts, the general
    /// parser must build the identical request (most edits make both reject, or it decline).
    @Test func mutationsNeverMakeTheTwoDisagree() {
        let base = Array(#"{"jsonrpc":"2.0","id":12,"method":"stopSheet","params":{"stopId":"40380"}}"#.utf8)
        var generator = SystemRandomNumberGenerator()
        var accepted = 0
        for _ in 0..<20_000 {
            let line = mutated(base, using: &generator)
            guard let fast = line.withUnsafeBytes({ CompactRequest.parse($0) }) else { continue }
            accepted += 1
            #expect(RPCMessage.parse(line) == .single(.request(fast.request)), "\(String(decoding: line, as: UTF8.self))")
        }
        #expect(accepted > 100)
    }

    /// The shortcut and the general handler give the same answer for the same params.
    @Test func stopSheetShortcutAnswersLikeTheGeneralHandler() {
        let store = Store(alertsSource: "test:alerts", stationsSource: "test:stations", now: Instant(secondsSince1970: 0))
        let service = StopSheetService(store: store, refreshers: [], connections: { 0 })
        func bytes(_ reply: RPCReply?) -> [UInt8]? {
            guard let reply else { return nil }
            var out: [UInt8] = []
            RPCResponse.appendLine(id: 1, reply: reply, to: &out)
            return out
        }
        func general(_ stopID: String) -> [UInt8]? {
            do { return bytes(.result(try service.stopSheet(["stopId": .string(stopID)]))) } catch { return bytes(.error(error)) }
        }
        let platforms = [Platform(stopID: "30074", stationID: "40380", stationName: "Clark/Lake", routes: [.blue], stepFree: true)]
        for stations in [nil, StationDirectory(platforms: platforms)] {
            if let stations { store.install(stations: stations, at: Instant(secondsSince1970: 0)) }
            for stopID in ["40380", "30074", "49999", "x"] {
                #expect(bytes(service.stopSheet(stopIdParam: "stopId", stopID)) == general(stopID), "\(stopID)")
            }
        }
        // Shapes the shortcut leaves to the general handler, which explains the error.
        #expect(service.stopSheet(stopIdParam: "stopId", "") == nil)
        #expect(service.stopSheet(stopIdParam: "stopId", String(repeating: "4", count: 33)) == nil)
        #expect(service.stopSheet(stopIdParam: "stopID", "40380") == nil)
        #expect(service.stopSheet(stopIdParam: "stopType", "bus") == nil)
    }
}
