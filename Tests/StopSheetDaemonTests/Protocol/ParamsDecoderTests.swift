import StopSheetCore
import StopSheetProtocol
import Testing
@testable import StopSheetDaemon

/// The one params check (`ParamsDecoder`) read off each method's `Params` type: every -32602
/// detail, in the order the daemon checks (not an object, unknown name, then each param in the
/// type's order, then the type's own rule), and limits counted in UTF-8 bytes, not characters.
///
/// The pairing of a method with its params and its result is the compiler's, so it has no runtime
/// test: each of these lines fails to compile (swiftc 6.3, `-typecheck` against the debug build's
/// modules, or in the daemon's module; `make check` type-checks such snippets, Tests/CompileFail,
/// with scripts/compile-fail.py):
///
///     dispatcher.register(Methods.Station.self) { (params: Methods.StopSheet.Params, _) in … }
///     // error: cannot convert value of type '@Sendable (Methods.StopSheet.Params, RPCContext) -> MethodReply<Answer.Station>'
///     //        to expected argument type '@Sendable (Methods.Station.Params, RPCContext) -> MethodReply<Answer.Station>'
///     dispatcher.register(Methods.Station.self) { _, _ in .of { () throws(RPCError) in try stations() } }
///     // error: cannot convert value of type '() throws(RPCError) -> PreEncoded<Answer.Stations>' to expected
///     //        argument type '() throws(RPCError) -> PreEncoded<Methods.Station.Result>' (aka '… PreEncoded<Answer.Station>')
///     dispatcher.register(Methods.Station.self) { params, _ in … params.stationName … }
///     // error: value of type 'Methods.Station.Params' has no member 'stationName'
///     dispatcher.registerExact(Methods.Station.self, param: .stopType) { … }
///     // error: type 'Methods.Station.Params.CodingKeys' has no member 'stopType'
///     let _: Reply<Answer.Sheet> = try client.call(Methods.Station.self, Methods.Station.Params(stopId: id))
///     // error: cannot assign value of type 'Reply<Methods.Station.Result>' (aka 'Reply<Answer.Station>') to type 'Reply<Answer.Sheet>'
///     _ = try client.call(Methods.Station.self, Methods.Station.Params(stopId: id, stationName: name))
///     // error: extra argument 'stationName' in call
///     _ = try client.call(Methods.Station.self, params: ["stopId": "40380"])
///     // error: cannot convert value of type 'Methods.Station.Type' to expected argument type 'String' (only the raw `call(method:params:)` takes JSON)
@Suite struct ParamsDecoderTests {
    /// The -32602 detail `json` gets as `P`, nil when it decodes.
    func detail<P: RPCParams>(_ type: P.Type, _ json: JSON?) -> String? {
        do throws(RPCError) {
            _ = try ParamsDecoder<P>().decode(json)
            return nil
        } catch {
            #expect(error.code == -32602 && error.message == "Invalid params", "\(error)")
            return error.data?.stringValue
        }
    }

    func decoded<P: RPCParams>(_ type: P.Type, _ json: JSON?) throws -> P { try ParamsDecoder<P>().decode(json) }

    static let notAStopID = "'stopId' must be a stop id (a non-empty string or a non-negative integer)"
    typealias Sheet = Methods.StopSheet.Params

    @Test func paramsThatAreNotAnObjectAreRefused() {
        for json: JSON in [["40380"], "40380", 40380, true] {
            #expect(detail(Sheet.self, json) == "params must be an object", "\(json)")
            #expect(detail(NoParams.self, json) == "params must be an object", "\(json)")
        }
        // None, or null, are no params.
        for json: JSON? in [nil, .null, [:]] {
            #expect(detail(NoParams.self, json) == nil)
            #expect(detail(Sheet.self, json) == "missing 'stopId'")
        }
    }

    @Test func anUnknownParamNamesTheExpectedOnes() {
        #expect(detail(Sheet.self, ["stopId": "40380", "colour": "red"]) == "unknown param 'colour' (expected stationName, stopId, stopType)")
        // Before any param's own check, and the first unknown one.
        #expect(detail(Sheet.self, ["stopId": true, "colour": 1, "size": 2]) == "unknown param 'colour' (expected stationName, stopId, stopType)")
        #expect(detail(Methods.Station.Params.self, ["stopid": "40380"]) == "unknown param 'stopid' (expected stopId)")
        #expect(detail(NoParams.self, ["stopId": "40380"]) == "unknown param 'stopId' (this method takes none)")
        #expect(detail(NoParams.self, ["x": .null]) == "unknown param 'x' (this method takes none)")
    }

    @Test func aRequiredParamMissingOrNullIsNamed() {
        #expect(detail(Sheet.self, ["stopType": "bus"]) == "missing 'stopId'")
        #expect(detail(Sheet.self, ["stopId": .null]) == "missing 'stopId'")
        // The type's order: stopId before stopType.
        #expect(detail(Sheet.self, ["stopType": "ferry"]) == "missing 'stopId'")
        #expect(detail(Methods.Unsubscribe.Params.self, [:]) == "missing 'subscription'")
        #expect(detail(Methods.Station.Params.self, nil) == "missing 'stopId'")
    }

    @Test func anOptionalParamMayBeLeftOutOrNull() throws {
        #expect(try decoded(Methods.Alerts.Params.self, nil) == .init(stopId: nil))
        #expect(try decoded(Methods.Alerts.Params.self, ["stopId": .null]) == .init(stopId: nil))
        #expect(try decoded(Methods.Facilities.Params.self, [:]) == .init(stopId: nil))
        #expect(try decoded(Methods.Refresh.Params.self, ["what": .null]) == .init(what: nil))
        #expect(try decoded(Sheet.self, ["stopId": "40380", "stopType": .null, "stationName": .null]) == Sheet(stopId: StopID("40380")!))
    }

    @Test func aStopIDIsANonEmptyStringOfAtMost32BytesOrANonNegativeInteger() throws {
        for good: JSON in ["40380", "x", .string(String(repeating: "7", count: 32)), .string(String(repeating: "é", count: 16))] {
            #expect(try decoded(Sheet.self, ["stopId": good]).stopId.text == good.stringValue)
        }
        #expect(try decoded(Sheet.self, ["stopId": 40380]).stopId.text == "40380")
        #expect(try decoded(Sheet.self, ["stopId": 0]).stopId.text == "0")
        #expect(try decoded(Sheet.self, ["stopId": .number("2.0")]).stopId.text == "2", "an integral number is its integer")
        // 17 characters but 34 bytes: the limit is in bytes.
        let bad: [JSON] = ["", .string(String(repeating: "7", count: 33)), .string(String(repeating: "é", count: 17)),
                           .string(String(repeating: "€", count: 11)), -1, .number("1.5"), .number("18446744073709551616"), true, [], ["a": 1]]
        for value in bad {
            #expect(detail(Sheet.self, ["stopId": value]) == Self.notAStopID, "\(value)")
            #expect(detail(Methods.Alerts.Params.self, ["stopId": value]) == Self.notAStopID, "\(value)")
        }
    }

    @Test func textIsAStringOfAtMost200Bytes() throws {
        let limit = "'stationName' must be a string of at most 200 bytes"
        for good in ["", String(repeating: "a", count: 200), String(repeating: "é", count: 100)] {
            #expect(try decoded(Sheet.self, ["stopId": "1", "stationName": .string(good)]).stationName?.text == good)
        }
        // 101 characters, 202 bytes.
        for bad: JSON in [.string(String(repeating: "a", count: 201)), .string(String(repeating: "é", count: 101)), 5, false, ["x"]] {
            #expect(detail(Sheet.self, ["stopId": "1", "stationName": bad]) == limit, "\(bad)")
        }
        #expect(detail(Methods.Unsubscribe.Params.self, ["subscription": 3]) == "'subscription' must be a string of at most 200 bytes")
        #expect(try decoded(Methods.Unsubscribe.Params.self, ["subscription": "s1"]).subscription.text == "s1")
    }

    @Test func aWordIsOneOfItsCases() throws {
        #expect(detail(Sheet.self, ["stopId": "1", "stopType": "ferry"]) == #"'stopType' must be one of "train", "bus""#)
        #expect(detail(Sheet.self, ["stopId": "1", "stopType": "Bus"]) == #"'stopType' must be one of "train", "bus""#)
        // Not a string: the text rule speaks first, as it always has.
        #expect(detail(Sheet.self, ["stopId": "1", "stopType": 1]) == "'stopType' must be a string of at most 200 bytes")
        #expect(detail(Methods.Refresh.Params.self, ["what": "everything"]) == #"'what' must be one of "alerts", "stations", "facilities", "all""#)
        #expect(try decoded(Methods.Refresh.Params.self, ["what": "alerts"]).what == .alerts)
        #expect(try decoded(Sheet.self, ["stopId": "1106", "stopType": "bus", "stationName": "Halsted"])
            == Sheet(stopId: StopID("1106")!, stopType: .bus, stationName: ParamText("Halsted")!))
    }

    @Test func subscribeTakesStopIDsABoolAndSomethingToFollow() throws {
        typealias Subscribe = Methods.Subscribe.Params
        let nothing = "nothing to subscribe to: give 'stopIds' or 'health': true"
        for json: JSON? in [nil, [:], ["stopIds": []], ["health": false], ["stopIds": [], "health": false], ["stopType": "bus"]] {
            #expect(detail(Subscribe.self, json) == nothing, "\(String(describing: json))")
        }
        #expect(detail(Subscribe.self, ["health": "yes"]) == "'health' must be true or false")
        #expect(detail(Subscribe.self, ["health": 1]) == "'health' must be true or false")
        #expect(detail(Subscribe.self, ["stopIds": "40380"]) == "'stopIds' must be an array of stop ids")
        #expect(detail(Subscribe.self, ["stopIds": ["40380", ""]]) == "'stopIds[]' must be a stop id (a non-empty string or a non-negative integer)")
        #expect(detail(Subscribe.self, ["stopIds": [.null]]) == "'stopIds[]' must be a stop id (a non-empty string or a non-negative integer)")
        // Each param's own rule before the rule across them.
        #expect(detail(Subscribe.self, ["stopIds": [], "stopType": "ferry"]) == #"'stopType' must be one of "train", "bus""#)
        #expect(try decoded(Subscribe.self, ["stopIds": [40380, "30074"]]).stopIds?.map(\.text) == ["40380", "30074"])
        #expect(try decoded(Subscribe.self, ["health": true]) == Subscribe(health: true))
    }

    /// What `rpc.discover` lists is what the decoder reads: the names, in the type's order, which
    /// are required, and each limit from the type that checks it.
    @Test func theShapeIsReadOffTheType() {
        let sheet = ParamsShape(Sheet.self)
        #expect(sheet.params.map(\.name) == ["stopId", "stopType", "stationName"])
        #expect(sheet.params.map(\.required) == [true, false, false])
        #expect(sheet.params[0].schema == StopID.paramSchema && sheet.params[2].schema == ParamText.paramSchema)
        #expect(StopID.paramSchema["oneOf"]?.arrayValue?.first?[ByteLimit.maxBytesMember] == .int(StopID.limit.maxBytes))
        #expect(StopID.paramSchema["oneOf"]?.arrayValue?.first?["description"] == "at most 32 bytes of UTF-8")
        #expect(ParamText.paramSchema[ByteLimit.maxBytesMember] == .int(ParamText.limit.maxBytes))
        #expect(ParamText.paramSchema["description"] == "at most 200 bytes of UTF-8")
        #expect(ParamsShape(NoParams.self).params.isEmpty)
        #expect(ParamsShape(Methods.Unsubscribe.Params.self).params.map(\.required) == [true])
        #expect(ParamsShape(Methods.Subscribe.Params.self).params.map(\.name) == ["stopIds", "stopType", "health"])
        for method in RPCMethod.all {
            #expect(Set(method.params.map(\.name)) == method.paramNames)
        }
    }

    /// A limit in bytes: a string the limit admits by its characters but not by its bytes is refused.
    @Test func aByteLimitCountsUTF8Bytes() {
        let limit = ByteLimit(maxBytes: 4)
        #expect(limit.admits("abcd") && limit.admits("éé") && limit.admits(""))
        #expect(!limit.admits("abcde") && !limit.admits("ééa") && !limit.admits("€€"))
        let nonEmpty = ByteLimit(maxBytes: 4, nonEmpty: true)
        #expect(!nonEmpty.admits("") && nonEmpty.admits("a"))
    }

    /// The stop id shortcut checks a stop id by the same rule (`StopID.limit`), with the same detail.
    @Test func theShortcutsQueryAgreesWithTheDecoder() {
        for text in ["40380", "", String(repeating: "7", count: 32), String(repeating: "7", count: 33), String(repeating: "é", count: 16),
                     String(repeating: "é", count: 17)] {
            let general: Result<String, RPCError> = Result { () throws(RPCError) in try ParamsDecoder<Sheet>().decode(["stopId": .string(text)]).stopId.text }
            let shortcut: Result<String, RPCError> = Result { () throws(RPCError) in try StopSheetQuery(stopID: text).stopID }
            #expect(general == shortcut, "\(text)")
        }
    }
}
