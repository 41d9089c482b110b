import StopSheetCore
import StopSheetProtocol
import Testing
@testable import StopSheetClient

/// The client's calls that take plain strings build their method's `Params` value first: a value
/// the daemon would refuse is refused there, before anything is sent, with the very -32602 the
/// daemon answers (its rule, `ParamValue.param`, under the param's name).
@Suite struct ClientParamsTests {
    /// The error `json` gets as a `Value` param named `key`, nil when it is taken.
    func refusal<Value: ParamValue>(_ type: Value.Type, _ json: JSON, _ key: some CodingKey) -> RPCError? {
        do throws(ClientError) {
            let _: Value = try StopSheetClient.param(json, key)
            return nil
        } catch {
            guard case .rpc(let error) = error else { Issue.record("not the daemon's error: \(error)"); return nil }
            return error
        }
    }

    @Test func aValueTheDaemonWouldRefuseIsRefusedWithItsError() {
        let tooLong = String(repeating: "9", count: StopID.limit.maxBytes + 1)
        #expect(refusal(StopID.self, .string(tooLong), Methods.StopSheet.Params.CodingKeys.stopId) == StopID.mismatch("stopId"))
        #expect(refusal(StopID.self, .string(""), Methods.Station.Params.CodingKeys.stopId) == StopID.mismatch("stopId"))
        #expect(refusal([StopID].self, .array(["40380", .string(tooLong)]), Methods.Subscribe.Params.CodingKeys.stopIds) == StopID.mismatch("stopIds[]"))
        #expect(refusal(ParamText.self, .string(String(repeating: "é", count: 101)), Methods.StopSheet.Params.CodingKeys.stationName)
            == .invalidParams("'stationName' must be a string of at most 200 bytes"))
        // The same values through the daemon's own check of a request's params.
        #expect(throws: StopID.mismatch("stopId")) { try ParamsDecoder<Methods.StopSheet.Params>().decode(["stopId": .string(tooLong)]) }
    }

    @Test func aValueWithinItsLimitIsTaken() {
        #expect(refusal(StopID.self, "40380", Methods.StopSheet.Params.CodingKeys.stopId) == nil)
        #expect(refusal([StopID].self, ["40380", "30374"], Methods.Subscribe.Params.CodingKeys.stopIds) == nil)
        #expect(refusal(ParamText.self, .string(String(repeating: "é", count: 100)), Methods.StopSheet.Params.CodingKeys.stationName) == nil)
    }
}
