import StopSheetCore
import Testing

@Suite struct AppStopsDecoderTests {
    @Test func decodesEveryField() throws {
        let body = #"""
        {"stops":[
          {"stopId":"30374","stationId":"40380","stationName":"Clark/Lake","routes":["Blue"],"stepFree":true,"direction":"S"},
          {"stopId":30111,"stationId":40570,"stationName":"California","routes":["Blue","blue","Blue Line"],"stepFree":false},
          {"stopId":"30173","stationId":"40900","stationName":" Howard ","routes":["Red","22","Purple","Yellow","P"],"stepFree":null},
          {"stopId":"30999","stationId":"40999","stationName":"New","direction":null}
        ]}
        """#
        #expect(try StationsDecoder.decode(bytes(body)) == [
            Platform(stopID: "30374", stationID: "40380", stationName: "Clark/Lake", direction: "S", routes: [.blue], stepFree: true),
            Platform(stopID: "30111", stationID: "40570", stationName: "California", routes: [.blue], stepFree: false),
            Platform(stopID: "30173", stationID: "40900", stationName: " Howard ", routes: [.red, .purple, .yellow], stepFree: nil),
            Platform(stopID: "30999", stationID: "40999", stationName: "New", routes: [], stepFree: nil),
        ])
    }

    @Test func emptyList() throws {
        #expect(try StationsDecoder.decode(bytes(#"{"stops":[]}"#)) == [])
    }

    @Test(arguments: [
        (#"{"stops":null}"#, DecodingFailure.malformed(path: "stops", reason: "expected an array, found null")),
        (#"{"stops":[[]]}"#, .malformed(path: "stops[0]", reason: "expected an object, found an array")),
        (#"{"stops":[{"stationId":"40380","stationName":"X"}]}"#, .malformed(path: "stops[0].stopId", reason: "missing")),
        (#"{"stops":[{"stopId":"30374","stationName":"X"}]}"#, .malformed(path: "stops[0].stationId", reason: "missing")),
        (#"{"stops":[{"stopId":"30374","stationId":"40380"}]}"#, .malformed(path: "stops[0].stationName", reason: "missing")),
        (#"{"stops":[{"stopId":"30374","stationId":"40380","stationName":""}]}"#, .malformed(path: "stops[0].stationName", reason: "empty")),
        (#"{"stops":[{"stopId":"30374","stationId":"40380","stationName":"X","routes":"Red"}]}"#, .malformed(path: "stops[0].routes", reason: "expected an array, found a string")),
        (#"{"stops":[{"stopId":"30374","stationId":"40380","stationName":"X","routes":[null]}]}"#, .malformed(path: "stops[0].routes[0]", reason: "expected a route id, found null")),
        (#"{"stops":[{"stopId":"30374","stationId":"40380","stationName":"X","stepFree":"yes"}]}"#, .malformed(path: "stops[0].stepFree", reason: "expected true, false or null, found a string")),
        (#"{"stops":[{"stopId":"30374","stationId":"40380","stationName":"X","direction":1}]}"#, .malformed(path: "stops[0].direction", reason: "expected a string, found a number")),
    ])
    func wrongShapesNameThePath(body: String, expected: DecodingFailure) {
        #expect(failure { try StationsDecoder.decode(bytes(body)) } == expected)
    }

    @Test func itemLimit() {
        let stop = #"{"stopId":"30374","stationId":"40380","stationName":"X"}"#
        let body = #"{"stops":[\#(stop),\#(stop)]}"#
        #expect(failure { try StationsDecoder.decode(bytes(body), limits: DecodingLimits(maxItems: 1)) } == .tooMany(count: nil, limit: 1))
    }
}
