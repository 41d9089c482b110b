import StopSheetCore
import StopSheetTestSupport
import Testing

/// One CTA alert object as the JSON API writes it; each argument is raw JSON.
func ctaAlert(
    id: String = #""1""#, headline: String = #""Red Line delays""#, short: String = #""Expect delays.""#,
    start: String = #""2015-02-14T14:00:00""#, end: String = "null",
    service: String = #"{"ServiceType":"R","ServiceTypeDescription":"Train Route","ServiceName":"Red Line","ServiceId":"Red"}"#
) -> String {
    ##"{"AlertId":\##(id),"Headline":\##(headline),"ShortDescription":\##(short),"FullDescription":{"#cdata-section":"<p>HTML</p>"},"EventStart":\##(start),"EventEnd":\##(end),"ImpactedService":{"Service":\##(service)}}"##
}

/// A whole `CTAAlerts` document; `alert` is raw JSON (an object, an array, or anything for the error paths).
func ctaBody(alert: String?, errorCode: String? = #""0""#) -> [UInt8] {
    var members = [#""TimeStamp":"2015-02-14T14:35:00""#]
    if let errorCode { members.append(#""ErrorCode":\#(errorCode)"#) }
    members.append(#""ErrorMessage":null"#)
    if let alert { members.append(#""Alert":\#(alert)"#) }
    return bytes(#"{"CTAAlerts":{\#(members.joined(separator: ","))}}"#)
}

@Suite struct CTAAlertsRealDataTests {
    let alerts: [Alert]

    init() throws {
        alerts = try AlertsDecoder.decode(Fixtures.bytes("alerts_2015-02-14.DERIVED.json"), chicago: TestZones.chicago)
    }

    func alert(_ id: String) throws -> Alert { try #require(alerts.first { $0.id == id }) }

    /// `TimeStamp` is when the API made the document, Chicago's wall clock; CTA's formats are
    /// Chicago's zone. An unreadable `TimeStamp` is none, and the alerts stand.
    @Test func theTimeStampIsWhenTheDocumentWasMade() throws {
        let feed = try AlertsDecoder.decodeFeed(Fixtures.bytes("alerts_2015-02-14.DERIVED.json"), chicago: TestZones.chicago)
        #expect(feed.producedAt == TestZones.chicago.instant(WallClock(year: 2015, month: 2, day: 14, hour: 14, minute: 35)))
        #expect(feed.timeZone == "America/Chicago" && feed.alerts.count == 17)
        let unreadable = try AlertsDecoder.decodeFeed(Array(#"{"CTAAlerts":{"TimeStamp":"soon","ErrorCode":"50"}}"#.utf8), chicago: TestZones.chicago)
        #expect(unreadable.producedAt == nil && unreadable.alerts.isEmpty && unreadable.timeZone == "America/Chicago")
        let app = try AlertsDecoder.decodeFeed(Array(#"{"alerts":[]}"#.utf8), chicago: TestZones.chicago)
        #expect(app.producedAt == nil && app.timeZone == "America/Chicago", "the app API says nothing of its making")
    }

    @Test func keepsExactlyTheSeventeenTrainAlertsInUpstreamOrder() {
        // 44 alerts upstream; the 27 that name only bus routes are dropped.
        #expect(alerts.map(\.id) == [
            "23322", "23656", "26950", "27031", "27032", "27033", "27034", "27035", "27036",
            "27037", "27038", "27039", "27040", "27041", "27042", "27043", "27068",
        ])
        #expect(alerts.allSatisfy { $0.kindSource == .fromTime })
    }

    @Test func lineAlertWithOpenEnd() throws {
        let alert = try alert("23322")
        #expect(alert.headline == "UIC-Halsted Station Peoria Entrance Temporary Closure")
        // Upstream ends in "entrances.  \n".
        #expect(alert.description == "The Peoria entrance to UIC-Halsted is temporarily closed. Enter/exit the UIC-Halsted station thru the Halsted or Morgan entrances.")
        #expect(alert.start == Instant(1_402_304_400))  // 2014-06-09T04:00:00 CDT = 09:00Z
        #expect(alert.end == nil)
        #expect(alert.scopes == [.route(.blue)])
    }

    @Test func stationAlertKeepsStationThenLine() throws {
        #expect(try alert("23656").scopes == [.station("40630"), .route(.red)])
        #expect(try alert("23656").start == Instant(1_404_122_400))
        #expect(try alert("26950").scopes == [.station("41690"), .route(.green)])
        #expect(try alert("26950").start == Instant(1_423_393_200))  // CST: 05:00 = 11:00Z
    }

    @Test func startAndEnd() throws {
        let alert = try alert("27031")
        #expect(alert.start == Instant(1_423_886_400))  // 2015-02-13T22:00:00 CST
        #expect(alert.end == Instant(1_424_001_600))  // 2015-02-15T06:00:00 CST
    }

    @Test func headlineAndDescriptionAreTrimmed() throws {
        let alert = try alert("27068")
        #expect(alert.headline == "Brown and Red Line Delays")  // upstream " Brown and Red Line Delays"
        #expect(alert.description.hasSuffix("near Sedgwick."))
        #expect(alert.scopes == [.route(.red), .route(.brown)])
        #expect(try self.alert("27042").description == "Howard-bound trains will not stop at the Addison station.")
    }

    @Test func neverTheHTMLFullDescription() {
        for alert in alerts {
            #expect(!alert.description.contains("<"))
            #expect(alert.headline == alert.headline.trimmingWhitespaceForTest)
            #expect(alert.description == alert.description.trimmingWhitespaceForTest)
        }
    }

    @Test func kindsAtTheResponseTimeStamp() {
        let timeStamp = Instant(1_423_946_100)  // 2015-02-14T14:35:00 Chicago
        let active = alerts.filter { $0.kind(at: timeStamp) == .active }.map(\.id)
        let planned = alerts.filter { $0.kind(at: timeStamp) == .planned }.map(\.id)
        #expect(active == ["23322", "23656", "26950", "27031", "27042", "27068"])
        #expect(planned.count == 11)
        #expect(active.count + planned.count == alerts.count)
    }

    @Test func aFaultInAnyAlertFailsTheWholeSet() {
        let text = Fixtures.text("alerts_2015-02-14.DERIVED.json")
        let broken = text.replacing(#""EventStart": "2015-02-14T14:28:00""#, with: #""EventStart": "2015-02-14T25:28:00""#)
        #expect(broken != text)
        #expect(failure { try AlertsDecoder.decode(bytes(broken), chicago: TestZones.chicago) }
            == .malformed(path: "CTAAlerts.Alert[43].EventStart", reason: "not a CTA date: '2015-02-14T25:28:00'"))
    }

    @Test func itemLimitCountsAlertsBeforeFiltering() {
        let body = Fixtures.bytes("alerts_2015-02-14.DERIVED.json")
        #expect(failure { try AlertsDecoder.decode(body, chicago: TestZones.chicago, limits: DecodingLimits(maxItems: 43)) } == .tooMany(count: nil, limit: 43))
        #expect(failure { try AlertsDecoder.decode(body, chicago: TestZones.chicago, limits: DecodingLimits(maxItems: 44)) } == nil)
    }

    @Test func nestingNeededByTheRealFile() {
        // CTAAlerts → Alert[] → alert → ImpactedService → Service[] → service → ServiceURL cdata.
        let body = Fixtures.bytes("alerts_2015-02-14.DERIVED.json")
        #expect(failure { try AlertsDecoder.decode(body, chicago: TestZones.chicago, limits: DecodingLimits(maxDepth: 8)) } == nil)
        #expect(failure { try AlertsDecoder.decode(body, chicago: TestZones.chicago, limits: DecodingLimits(maxDepth: 7)) } == .invalidJSON(.tooDeep(limit: 7)))
    }

    @Test func leadingByteOrderMarkIsAccepted() throws {
        let body = [0xEF, 0xBB, 0xBF] + Fixtures.bytes("alerts_2015-02-14.DERIVED.json")
        #expect(try AlertsDecoder.decode(body, chicago: TestZones.chicago) == alerts)
    }
}

extension String {
    fileprivate var trimmingWhitespaceForTest: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

@Suite struct CTAAlertsShapeFixtureTests {
    @Test func serviceAsObjectOrArrayAndCdata() throws {
        let alerts = try AlertsDecoder.decode(Fixtures.bytes("shape-fixtures/detailedalert_list_success.json"), chicago: TestZones.chicago)
        #expect(alerts == [
            Alert(id: "115080", kindSource: .fromTime, headline: "Austin Main Stationhouse Temporarily Closed",
                  description: "Elevator out of service", start: Instant(1_784_091_600), end: nil,
                  scopes: [.station("41260"), .route(.green)],
                  details: AlertDetails(impact: "Elevator Status", severity: 9, major: false, url: "http://www.transitchicago.com/alerts/115080")),
        ])
    }

    @Test(arguments: [
        "shape-fixtures/detailedalert_no_active_alerts.json",  // ErrorCode 25
        "shape-fixtures/detailedalert_no_active_alerts_for_filter.json",  // ErrorCode 50
        "shape-fixtures/detailedalert_ok_no_alerts.json",  // ErrorCode 0, no Alert
    ])
    func noAlertsIsAnEmptySuccess(fixture: String) throws {
        #expect(try AlertsDecoder.decode(Fixtures.bytes(fixture), chicago: TestZones.chicago) == [])
    }

    @Test func fatalErrorCodeIsAnUpstreamError() {
        #expect(failure { try AlertsDecoder.decode(Fixtures.bytes("shape-fixtures/detailedalert_fatal_error.json"), chicago: TestZones.chicago) }
            == .upstreamError(code: "100", message: "Invalid option for parameter 'activeonly': Valid options are 'true', 'false'"))
    }
}

@Suite struct CTAAlertsQuirkTests {
    let redAlert = Alert(id: "1", kindSource: .fromTime, headline: "Red Line delays", description: "Expect delays.",
                         start: Instant(1_423_944_000), scopes: [.route(.red)])

    @Test(arguments: [
        ##""0""##, "0", ##"["0"]"##, "[]", "null", ##"{"#cdata-section":"0"}"##, ##"" 0 ""##, "0.0",
    ])
    func successCodes(code: String) throws {
        #expect(try AlertsDecoder.decode(ctaBody(alert: ctaAlert(), errorCode: code), chicago: TestZones.chicago) == [redAlert])
    }

    @Test func absentErrorCodeIsSuccess() throws {
        #expect(try AlertsDecoder.decode(ctaBody(alert: ctaAlert(), errorCode: nil), chicago: TestZones.chicago) == [redAlert])
    }

    @Test(arguments: [#""25""#, #""50""#, "25", "50", #"["25"]"#, #"["50"]"#, #"["0","25"]"#])
    func noAlertCodesMeanEmptyEvenWithAlertsPresent(code: String) throws {
        #expect(try AlertsDecoder.decode(ctaBody(alert: nil, errorCode: code), chicago: TestZones.chicago) == [])
        #expect(try AlertsDecoder.decode(ctaBody(alert: ctaAlert(), errorCode: code), chicago: TestZones.chicago) == [])
    }

    @Test func otherCodesAreUpstreamErrors() {
        #expect(failure { try AlertsDecoder.decode(ctaBody(alert: nil, errorCode: #"["100"]"#), chicago: TestZones.chicago) }
            == .upstreamError(code: "100", message: nil))
        #expect(failure { try AlertsDecoder.decode(ctaBody(alert: nil, errorCode: "101"), chicago: TestZones.chicago) }
            == .upstreamError(code: "101", message: nil))
        #expect(failure { try AlertsDecoder.decode(ctaBody(alert: nil, errorCode: #""E1""#), chicago: TestZones.chicago) }
            == .upstreamError(code: "E1", message: nil))
        let withMessage = bytes(##"{"CTAAlerts":{"ErrorCode":"500","ErrorMessage":{"#cdata-section":" Server busy\r\n"}}}"##)
        #expect(failure { try AlertsDecoder.decode(withMessage, chicago: TestZones.chicago) } == .upstreamError(code: "500", message: "Server busy"))
    }

    @Test func errorCodeOfWrongShapeIsMalformed() {
        #expect(failure { try AlertsDecoder.decode(ctaBody(alert: nil, errorCode: "true"), chicago: TestZones.chicago) }
            == .malformed(path: "CTAAlerts.ErrorCode", reason: "expected text, found a boolean"))
        #expect(failure { try AlertsDecoder.decode(ctaBody(alert: nil, errorCode: #"["0",{}]"#), chicago: TestZones.chicago) }
            == .malformed(path: "CTAAlerts.ErrorCode[1]", reason: "expected text, found an object"))
    }

    @Test func alertAsOneObjectOrAnArrayOfOne() throws {
        #expect(try AlertsDecoder.decode(ctaBody(alert: ctaAlert()), chicago: TestZones.chicago) == [redAlert])
        #expect(try AlertsDecoder.decode(ctaBody(alert: "[\(ctaAlert())]"), chicago: TestZones.chicago) == [redAlert])
        #expect(try AlertsDecoder.decode(ctaBody(alert: "[]"), chicago: TestZones.chicago) == [])
        #expect(try AlertsDecoder.decode(ctaBody(alert: "null"), chicago: TestZones.chicago) == [])
    }

    @Test func serviceAsOneObjectOrAnArray() throws {
        let one = #"{"ServiceType":"T","ServiceId":"40380"}"#
        let many = #"[{"ServiceType":"T","ServiceId":"40380"},{"ServiceType":"R","ServiceId":"Blue"}]"#
        #expect(try AlertsDecoder.decode(ctaBody(alert: ctaAlert(service: one)), chicago: TestZones.chicago)[0].scopes == [.station("40380")])
        #expect(try AlertsDecoder.decode(ctaBody(alert: ctaAlert(service: many)), chicago: TestZones.chicago)[0].scopes == [.station("40380"), .route(.blue)])
    }

    @Test func anyTextFieldMayBeCdata() throws {
        let alert = ctaAlert(
            id: ##"{"#cdata-section":"27068"}"##, headline: ##"{"#cdata-section":" Delays \r\n"}"##,
            short: ##"{"#cdata-section":"Some delays.\r\n"}"##, start: ##"{"#cdata-section":"2015-02-14T14:28:00"}"##,
            service: ##"{"ServiceType":{"#cdata-section":"R"},"ServiceId":{"#cdata-section":"Brn"}}"##)
        #expect(try AlertsDecoder.decode(ctaBody(alert: alert), chicago: TestZones.chicago) == [
            Alert(id: "27068", kindSource: .fromTime, headline: "Delays", description: "Some delays.",
                  start: Instant(1_423_945_680), scopes: [.route(.brown)]),
        ])
    }

    @Test func numbersWhereStringsAreExpected() throws {
        let alert = ctaAlert(id: "27068", service: #"{"ServiceType":"T","ServiceId":41320}"#)
        let decoded = try AlertsDecoder.decode(ctaBody(alert: alert), chicago: TestZones.chicago)
        #expect(decoded.map(\.id) == ["27068"])
        #expect(decoded[0].scopes == [.station("41320")])
    }

    @Test(arguments: [
        (#"{"ServiceType":"X","ServiceId":"Systemwide"}"#, [AlertScope.systemwide]),
        (#"{"ServiceType":"X","ServiceId":"SystemWide"}"#, [.systemwide]),
        (#"{"ServiceType":"X","ServiceId":"Train"}"#, [.systemwide]),
        (#"{"ServiceType":"x","ServiceId":"TRAIN"}"#, [.systemwide]),
        (#"{"ServiceType":"R","ServiceId":"Pink"}"#, [.route(.pink)]),
        (#"{"ServiceType":"R","ServiceId":"Org"}"#, [.route(.orange)]),
        (#"{"ServiceType":"R","ServiceId":"Pexp"}"#, [.route(.purpleExpress)]),
        (#"{"ServiceType":"T","ServiceId":"40630"}"#, [.station("40630")]),
        (#"[{"ServiceType":"R","ServiceId":"Red"},{"ServiceType":"X","ServiceId":"Train"},{"ServiceType":"R","ServiceId":"Red"},{"ServiceType":"X","ServiceId":"Systemwide"}]"#,
         [.route(.red), .systemwide]),
        (#"[{"ServiceType":"B","ServiceId":"22"},{"ServiceType":"T","ServiceId":"40630"},{"ServiceType":"R","ServiceId":"Red"},{"ServiceType":"T","ServiceId":"40630"}]"#,
         [.station("40630"), .route(.red)]),
    ])
    func trainScopes(service: String, scopes: [AlertScope]) throws {
        #expect(try AlertsDecoder.decode(ctaBody(alert: ctaAlert(service: service)), chicago: TestZones.chicago).first?.scopes == scopes)
    }

    @Test(arguments: [
        #"{"ServiceType":"B","ServiceId":"22"}"#,
        #"{"ServiceType":"X","ServiceId":"Bus"}"#,
        #"{"ServiceType":"R","ServiceId":"Silver"}"#,  // not a train line
        #"{"ServiceType":"Q","ServiceId":"Red"}"#,  // unknown service type
        #"{"ServiceType":"T","ServiceId":""}"#,
        "[]", "null",
    ])
    func alertsWithoutATrainScopeAreDropped(service: String) throws {
        #expect(try AlertsDecoder.decode(ctaBody(alert: ctaAlert(service: service)), chicago: TestZones.chicago) == [])
    }

    @Test func missingOrNullImpactedServiceDropsTheAlert() throws {
        let without = #"{"AlertId":"1","Headline":"H","ShortDescription":"D","EventStart":"2015-02-14"}"#
        let null = #"{"AlertId":"1","Headline":"H","ImpactedService":null}"#
        #expect(try AlertsDecoder.decode(ctaBody(alert: "[\(without),\(null)]"), chicago: TestZones.chicago) == [])
    }

    @Test(arguments: [
        (#""2015-02-14T14:35:00""#, Int64?(1_423_946_100)),
        (#""2015-02-14T14:35""#, 1_423_946_100),
        (#""2014-08-15""#, 1_408_078_800),
        (#""20150214 14:35""#, 1_423_946_100),
        (#""20150214 14:35:00""#, 1_423_946_100),
        (#""20140815""#, 1_408_078_800),
        ("null", nil),
        (#""""#, nil),
        (#"" ""#, nil),
    ])
    func eventDates(value: String, seconds: Int64?) throws {
        let decoded = try AlertsDecoder.decode(ctaBody(alert: ctaAlert(start: value, end: value)), chicago: TestZones.chicago)
        let expected = seconds.map { Instant(secondsSince1970: $0) }
        #expect(decoded.first?.start == expected)
        #expect(decoded.first?.end == expected)
    }

    @Test func nullTextsAreEmpty() throws {
        // The JSON API writes an empty XML element as null.
        let decoded = try AlertsDecoder.decode(ctaBody(alert: ctaAlert(headline: "null", short: "null")), chicago: TestZones.chicago)
        #expect(decoded.first?.headline == "")
        #expect(decoded.first?.description == "")
        let withoutShort = #"{"AlertId":"1","Headline":"H","ImpactedService":{"Service":{"ServiceType":"R","ServiceId":"Y"}}}"#
        #expect(try AlertsDecoder.decode(ctaBody(alert: withoutShort), chicago: TestZones.chicago).first?.description == "")
    }

    @Test(arguments: [
        (ctaBody(alert: "42"), DecodingFailure.malformed(path: "CTAAlerts.Alert", reason: "expected an object or an array, found a number")),
        (ctaBody(alert: #""none""#), .malformed(path: "CTAAlerts.Alert", reason: "expected an object or an array, found a string")),
        (ctaBody(alert: "[\(ctaAlert()),\"x\"]"), .malformed(path: "CTAAlerts.Alert[1]", reason: "expected an object, found a string")),
        (ctaBody(alert: #"{"AlertId":"1","ImpactedService":null}"#), .malformed(path: "CTAAlerts.Alert[0].Headline", reason: "missing")),
        (ctaBody(alert: #"{"Headline":"H"}"#), .malformed(path: "CTAAlerts.Alert[0].AlertId", reason: "missing")),
        (ctaBody(alert: ctaAlert(id: #"" ""#)), .malformed(path: "CTAAlerts.Alert[0].AlertId", reason: "empty")),
        (ctaBody(alert: ctaAlert(id: "null")), .malformed(path: "CTAAlerts.Alert[0].AlertId", reason: "empty")),
        (ctaBody(alert: ctaAlert(headline: "true")), .malformed(path: "CTAAlerts.Alert[0].Headline", reason: "expected text, found a boolean")),
        (ctaBody(alert: ctaAlert(headline: #"["a"]"#)), .malformed(path: "CTAAlerts.Alert[0].Headline", reason: "expected text, found an array")),
        (ctaBody(alert: ctaAlert(short: ##"{"#text":"a"}"##)), .malformed(path: "CTAAlerts.Alert[0].ShortDescription", reason: "expected text, found an object")),
        (ctaBody(alert: ctaAlert(headline: ##"{"#cdata-section":[]}"##)), .malformed(path: "CTAAlerts.Alert[0].Headline.#cdata-section", reason: "expected text, found an array")),
        (ctaBody(alert: ctaAlert(start: #""2015-02-30T10:00:00""#)), .malformed(path: "CTAAlerts.Alert[0].EventStart", reason: "not a CTA date: '2015-02-30T10:00:00'")),
        (ctaBody(alert: ctaAlert(end: #""TBD""#)), .malformed(path: "CTAAlerts.Alert[0].EventEnd", reason: "not a CTA date: 'TBD'")),
        (ctaBody(alert: ctaAlert(end: "1423946100")), .malformed(path: "CTAAlerts.Alert[0].EventEnd", reason: "not a CTA date: '1423946100'")),
        (ctaBody(alert: ctaAlert(service: "5")), .malformed(path: "CTAAlerts.Alert[0].ImpactedService.Service", reason: "expected an object or an array, found a number")),
        (ctaBody(alert: ctaAlert(service: #"[{"ServiceType":"R","ServiceId":"Red"},"Blue"]"#)), .malformed(path: "CTAAlerts.Alert[0].ImpactedService.Service[1]", reason: "expected an object, found a string")),
        (ctaBody(alert: ctaAlert(service: #"{"ServiceId":"Red"}"#)), .malformed(path: "CTAAlerts.Alert[0].ImpactedService.Service[0].ServiceType", reason: "missing")),
        (ctaBody(alert: ctaAlert(service: #"{"ServiceType":"R","ServiceId":null}"#)), .malformed(path: "CTAAlerts.Alert[0].ImpactedService.Service[0].ServiceId", reason: "null")),
        (bytes(#"{"CTAAlerts":{"Alert":[{"AlertId":"1","Headline":"H","ImpactedService":"Red"}]}}"#), .malformed(path: "CTAAlerts.Alert[0].ImpactedService", reason: "expected an object, found a string")),
        (bytes(#"{"CTAAlerts":"down"}"#), .malformed(path: "CTAAlerts", reason: "expected an object, found a string")),
        (bytes(#"{"CTAAlerts":null}"#), .malformed(path: "CTAAlerts", reason: "expected an object, found null")),
    ])
    func wrongShapesNameThePath(body: [UInt8], expected: DecodingFailure) {
        #expect(failure { try AlertsDecoder.decode(body, chicago: TestZones.chicago) } == expected)
    }

    @Test func tooManyAlerts() {
        let three = "[\(ctaAlert()),\(ctaAlert()),\(ctaAlert())]"
        #expect(failure { try AlertsDecoder.decode(ctaBody(alert: three), chicago: TestZones.chicago, limits: DecodingLimits(maxItems: 2)) } == .tooMany(count: nil, limit: 2))
    }

    @Test func decoderCanBeCalledWithAParsedDocument() throws {
        let document = try JSONParser.parse(ctaBody(alert: ctaAlert()))
        #expect(try CTAAlertsDecoder.decode(document, chicago: TestZones.chicago) == [redAlert])
    }
}
