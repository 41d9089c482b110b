import StopSheetCore
import StopSheetProtocol
import Testing
@testable import StopSheetClient

/// What the client sends for a method's `Params` value (`ParamsEncoder`): the JSON the daemon's
/// check (`ParamsDecoder`, written apart from it) reads back as the same value, members in
/// `CodingKeys` order, an absent param left out, no params at all for `NoParams`.
@Suite struct ParamsEncoderTests {
    private func roundTrip<P: RPCParams & Equatable>(_ params: P, sourceLocation: SourceLocation = #_sourceLocation) throws -> String? {
        let json = ParamsEncoder.json(params)
        #expect(try ParamsDecoder<P>().decode(json) == params, sourceLocation: sourceLocation)
        return json?.encodedString
    }

    @Test func eachParamAsTheDaemonReadsIt() throws {
        let sheet = Methods.StopSheet.Params(stopId: try #require(StopID("40380")), stopType: .bus, stationName: try #require(ParamText("Clark \"Lake\" é")))
        #expect(try roundTrip(sheet) == #"{"stopId":"40380","stopType":"bus","stationName":"Clark \"Lake\" é"}"#)
        #expect(try roundTrip(Methods.StopSheet.Params(stopId: try #require(StopID("40380")))) == #"{"stopId":"40380"}"#)
        let subscribe = Methods.Subscribe.Params(stopIds: [try #require(StopID("40380")), try #require(StopID("30374"))], health: true)
        #expect(try roundTrip(subscribe) == #"{"stopIds":["40380","30374"],"health":true}"#)
        #expect(try roundTrip(Methods.Refresh.Params(what: .facilities)) == #"{"what":"facilities"}"#)
        #expect(try roundTrip(Methods.Alerts.Params()) == nil)
        #expect(try roundTrip(NoParams()) == nil)
    }
}
