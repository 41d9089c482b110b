import StopSheetCore
import StopSheetTestSupport
import Testing

@Suite struct AppAlertsDecoderTests {
    @Test func decodesEveryField() throws {
        let body = #"""
        {"alerts":[
          {"id":"a1","status":"active","headline":"Red Line delays","description":"Trains are running with delays.",
           "scopes":[{"type":"route","id":"Red"}],"start":"2015-02-14T20:28:00Z","end":null},
          {"id":27043,"status":"PLANNED","headline":"Boarding change","description":"",
           "scopes":[{"type":"station","id":"40380"},{"type":"route","id":"Brn"},{"type":"station","id":40380}],
           "start":"2015-02-15T06:00:00","end":"2015-02-15T18:00:00-06:00"},
          {"id":"a3","status":"Suspended","headline":"System notice",
           "scopes":[{"type":"SYSTEMWIDE"}]},
          {"id":"a4","headline":"No status","scopes":[{"type":"systemwide"},{"type":"route","id":"Pink Line"}]}
        ]}
        """#
        #expect(try AlertsDecoder.decode(bytes(body), chicago: TestZones.chicago) == [
            Alert(id: "a1", kindSource: .stated(.active), headline: "Red Line delays",
                  description: "Trains are running with delays.", start: Instant(1_423_945_680), scopes: [.route(.red)]),
            Alert(id: "27043", kindSource: .stated(.planned), headline: "Boarding change", description: "",
                  start: Instant(1_424_001_600), end: Instant(1_424_044_800), scopes: [.station("40380"), .route(.brown)]),
            Alert(id: "a3", kindSource: .stated(.unknown), headline: "System notice", description: "", scopes: [.systemwide]),
            Alert(id: "a4", kindSource: .stated(.unknown), headline: "No status", description: "", scopes: [.systemwide, .route(.pink)]),
        ])
    }

    @Test(arguments: [
        (#""active""#, AlertKind.active), (#""Active""#, .active), (#"" ACTIVE ""#, .active),
        (#""planned""#, .planned), (#""Planned""#, .planned),
        (#""resolved""#, .unknown), (#""""#, .unknown), ("null", .unknown), ("1", .unknown), ("true", .unknown),
    ])
    func statusBecomesTheStatedKind(status: String, kind: AlertKind) throws {
        let body = #"{"alerts":[{"id":"1","status":\#(status),"headline":"H","scopes":[{"type":"systemwide"}]}]}"#
        #expect(try AlertsDecoder.decode(bytes(body), chicago: TestZones.chicago).first?.kindSource == .stated(kind))
    }

    @Test(arguments: [
        #"[{"type":"route","id":"22"}]"#,  // a bus route
        #"[{"type":"stop","id":"1066"}]"#,
        #"[{"type":"bus"}]"#,
        #"[]"#, "null",
    ])
    func alertsWithoutATrainScopeAreDropped(scopes: String) throws {
        let body = #"{"alerts":[{"id":"1","status":"active","headline":"H","scopes":\#(scopes)}]}"#
        #expect(try AlertsDecoder.decode(bytes(body), chicago: TestZones.chicago) == [])
        let withoutScopes = #"{"alerts":[{"id":"1","status":"active","headline":"H"}]}"#
        #expect(try AlertsDecoder.decode(bytes(withoutScopes), chicago: TestZones.chicago) == [])
    }

    @Test func emptyListIsAnEmptySuccess() throws {
        #expect(try AlertsDecoder.decode(bytes(#"{"alerts":[]}"#), chicago: TestZones.chicago) == [])
    }

    @Test(arguments: [
        (#"{"alerts":null}"#, DecodingFailure.malformed(path: "alerts", reason: "expected an array, found null")),
        (#"{"alerts":{"id":"1"}}"#, .malformed(path: "alerts", reason: "expected an array, found an object")),
        (#"{"alerts":[7]}"#, .malformed(path: "alerts[0]", reason: "expected an object, found a number")),
        (#"{"alerts":[{"headline":"H"}]}"#, .malformed(path: "alerts[0].id", reason: "missing")),
        (#"{"alerts":[{"id":true,"headline":"H"}]}"#, .malformed(path: "alerts[0].id", reason: "expected a string or a number, found a boolean")),
        (#"{"alerts":[{"id":"1"}]}"#, .malformed(path: "alerts[0].headline", reason: "missing")),
        (#"{"alerts":[{"id":"1","headline":5}]}"#, .malformed(path: "alerts[0].headline", reason: "expected a string, found a number")),
        (#"{"alerts":[{"id":"1","headline":"H","description":[]}]}"#, .malformed(path: "alerts[0].description", reason: "expected a string, found an array")),
        (#"{"alerts":[{"id":"1","headline":"H","start":"tomorrow"}]}"#, .malformed(path: "alerts[0].start", reason: "not an ISO 8601 time: 'tomorrow'")),
        (#"{"alerts":[{"id":"1","headline":"H","end":1423946100}]}"#, .malformed(path: "alerts[0].end", reason: "expected a string, found a number")),
        (#"{"alerts":[{"id":"1","headline":"H","scopes":"Red"}]}"#, .malformed(path: "alerts[0].scopes", reason: "expected an array, found a string")),
        (#"{"alerts":[{"id":"1","headline":"H","scopes":["Red"]}]}"#, .malformed(path: "alerts[0].scopes[0]", reason: "expected an object, found a string")),
        (#"{"alerts":[{"id":"1","headline":"H","scopes":[{"id":"Red"}]}]}"#, .malformed(path: "alerts[0].scopes[0].type", reason: "missing")),
        (#"{"alerts":[{"id":"1","headline":"H","scopes":[{"type":"route"}]}]}"#, .malformed(path: "alerts[0].scopes[0].id", reason: "missing")),
        (#"{"alerts":[{"id":"1","headline":"H","scopes":[{"type":"station","id":""}]}]}"#, .malformed(path: "alerts[0].scopes[0].id", reason: "empty")),
    ])
    func wrongShapesNameThePath(body: String, expected: DecodingFailure) {
        #expect(failure { try AlertsDecoder.decode(bytes(body), chicago: TestZones.chicago) } == expected)
    }

    @Test func tooManyAlerts() {
        let alert = #"{"id":"1","headline":"H","scopes":[{"type":"systemwide"}]}"#
        let body = #"{"alerts":[\#(Array(repeating: alert, count: 5).joined(separator: ","))]}"#
        #expect(failure { try AlertsDecoder.decode(bytes(body), chicago: TestZones.chicago, limits: DecodingLimits(maxItems: 4)) } == .tooMany(count: nil, limit: 4))
        #expect(failure { try AlertsDecoder.decode(bytes(body), chicago: TestZones.chicago, limits: DecodingLimits(maxItems: 5)) } == nil)
    }
}
