import Foundation
import Testing
import StopSheetCore
import StopSheetProtocol
import StopSheetTestSupport
@testable import StopSheetDaemon

/// The daemon's answers are `Answer` values encoded by `AnswerEncoding`; a snapshot's sheets are
/// encoded with parts encoded once (`PreEncoded`) and completed by `data`. These check that they
/// give the same bytes as the value they stand for, and the encoder's rules: members in
/// `CodingKeys` order, an absent member left out (`T?`) or `null` (`Nullable`) by its type,
/// escapes, numbers.
@Suite struct AnswerEncoderTests {
    private let alerts = try! AlertsDecoder.decode(Fixtures.bytes("alerts_2015-02-14.DERIVED.json"), chicago: TestZones.chicago)
    private let directory = StationDirectory(platforms: try! StationsDecoder.decode(Fixtures.bytes("L_stops_2021.csv")))

    /// The core's sheet as an `Answer.Sheet` value, every member made from its value (nothing
    /// encoded before).
    private func answer(_ sheet: StopSheet, data: SheetData, in zone: TimeZoneRules) -> Answer.Sheet {
        let button = sheet.accessibilityButton
        return Answer.Sheet(stopType: .train, stopId: nil, stationId: sheet.stationID, stationName: sheet.stationName, alertGlyph: sheet.alertGlyph?.answer,
                            accessibilityButton: Answer.AccessibilityButton(
                                tone: button.tone, stepFree: button.stepFree, stepFreeFrom: button.stepFreeFrom, accessibilityLabel: button.accessibilityLabel, symbol: button.symbol,
                                alert: button.alert.answer, advisories: button.advisories.map { $0.answer(in: zone) }, now: button.now.answer(in: zone)),
                            alerts: sheet.alerts.map { $0.answer(in: zone) }, data: data.answer)
    }

    @Test func everySplicedSheetIsTheBytesOfItsValue() {
        let capture = CTATime.instant("2015-02-14T14:35:00", in: TestZones.chicago)!
        let fresh = DataFreshness(lastGoodLoad: capture.adding(seconds: -30), producedAt: capture.adding(seconds: -40), now: capture, staleAfterSeconds: 300)
        let data = SheetData(alerts: fresh, stations: fresh, facilities: DataFreshness(lastGoodLoad: nil, now: capture, staleAfterSeconds: 300, configured: false),
                             zone: TestZones.chicago)
        for now in [capture, capture.adding(seconds: 400_000_000)] {
            let snapshot = Snapshot.build(stations: directory, alerts: alerts, now: now)
            let encoded = EncodedSnapshot(snapshot, zone: TestZones.chicago)
            for (index, station) in directory.stations.enumerated() {
                let spliced = PreEncoded(encoded.stopSheet(at: index), data: data.encoded).bytes
                let whole = AnswerEncoding.encode(answer(snapshot.stopSheet(for: station), data: data, in: TestZones.chicago))
                #expect(spliced == whole, "station \(station.id)")
            }
        }
    }

    /// Each answer writes a train sheet's `data` after the members the snapshot encoded: it must
    /// be the sheet's last member.
    @Test func dataIsTheSheetsLastMember() {
        #expect(Answer.Sheet.CodingKeys.allCases.last == .data)
    }

    /// `now` of every shape is the bytes of its value: each verdict, basis, completeness and
    /// reason, platforms with every pair of entry and exit, names that need escapes.
    @Test func everyShapeOfNowIsTheBytesOfItsValue() {
        let answers: [Bool?] = [nil, true, false]
        let platforms = answers.flatMap { entry in
            answers.map { exit in StepFreeNow.PlatformAccess(stopID: "P\(String(describing: entry))\(String(describing: exit))", name: "\"Quai\" é\n", entry: entry, exit: exit) }
        }
        let outage = StepFreeNow.Outage(alertID: "a", facility: .elevator, facilityID: "7", pathways: ["p1"])
        for verdict in StepFreeNow.Verdict.allCases {
            for basis in StepFreeNow.Basis.allCases {
                for complete in [false, true] {
                    for (platforms, outages) in [(platforms, [outage]), ([], [])] {
                        for reason in [nil] + StepFreeNow.Reason.allCases {
                            let now = StepFreeNow(stepFree: verdict, basis: basis, complete: complete, platforms: platforms, outages: outages, reason: reason)
                            let json = try? JSONParser.parse(now.encoded(in: TestZones.chicago).bytes)
                            let decoded = json.flatMap { try? AnswerDecoder.decode(Answer.StepFreeNow.self, from: $0) }
                            #expect(decoded == now.answer(in: TestZones.chicago), "\(now)")
                            // Issue 46's `reason`: the core's sentence, written only when there is one.
                            #expect(decoded?.reason == reason?.rawValue && (json?["reason"] == nil) == (reason == nil), "\(now)")
                        }
                    }
                }
            }
        }
    }

    /// An absent `Nullable` member is `null`, an absent plain optional one is left out.
    @Test func anAbsentMemberIsNullOrLeftOutByItsType() {
        let freshness = Answer.Freshness(loaded: false, ageSeconds: nil, stale: true, producedAt: nil, configured: true)
        #expect(String(decoding: AnswerEncoding.encode(freshness), as: UTF8.self)
            == #"{"loaded":false,"ageSeconds":null,"stale":true,"producedAt":null,"configured":true}"#)
        let scopes = [Answer.Scope(type: .systemwide, id: nil, routeType: nil), Answer.Scope(type: .routeType, id: nil, routeType: -1)]
        #expect(String(decoding: AnswerEncoding.encode(scopes), as: UTF8.self) == #"[{"type":"systemwide"},{"type":"routeType","routeType":-1}]"#)
    }

    /// The client reads both kinds of optional member back from the bytes, and from an answer
    /// that says otherwise than the daemon would (`null` for a member left out, or nothing for a
    /// `null` one) alike: no value.
    @Test func anAbsentMemberReadsBackAsNoValueEitherWay() throws {
        let scope = Answer.Scope(type: .systemwide, id: nil, routeType: nil)
        #expect(try AnswerDecoder.decode(Answer.Scope.self, from: JSONParser.parse(AnswerEncoding.encode(scope))) == scope)
        #expect(try AnswerDecoder.decode(Answer.Scope.self, from: ["type": "systemwide", "id": .null, "routeType": .null]) == scope)
        let freshness = Answer.Freshness(loaded: false, ageSeconds: nil, stale: true, producedAt: nil, configured: true)
        #expect(try AnswerDecoder.decode(Answer.Freshness.self, from: JSONParser.parse(AnswerEncoding.encode(freshness))) == freshness)
        #expect(try AnswerDecoder.decode(Answer.Freshness.self, from: ["loaded": false, "stale": true, "configured": true]) == freshness)
        let aged = Answer.Freshness(loaded: true, ageSeconds: 12, stale: false, producedAt: "2015-02-14T14:35:00-06:00", configured: true)
        #expect(try AnswerDecoder.decode(Answer.Freshness.self, from: JSONParser.parse(AnswerEncoding.encode(aged))) == aged)
        #expect(aged.ageSeconds.value == 12 && freshness.ageSeconds == nil && aged.producedAt != nil)
    }

    @Test func stringsAreEscapedAndNumbersExact() {
        let notice = Answer.Notices(count: Int.min, first: [Answer.Notice(file: "a\"b\\c\n\u{1}é", line: Int.max, problem: "")])
        #expect(String(decoding: AnswerEncoding.encode(notice), as: UTF8.self)
            == #"{"count":-9223372036854775808,"first":[{"file":"a\"b\\c\n\u0001é","line":9223372036854775807,"problem":""}]}"#)
    }

    /// Integers of every sign and length, zero included, as `JSON.int` writes them.
    @Test func integersAreTheirDecimalDigits() {
        let numbers = [0, -7, 10, 1_000_000, Int.max, Int.min, -1]
        #expect(AnswerEncoding.encode(numbers) == JSON.array(numbers.map(JSON.int)).encoded)
        #expect(String(decoding: AnswerEncoding.encode([UInt64.max, 0]), as: UTF8.self) == "[18446744073709551615,0]")
    }

    /// A sheet with parts encoded before is `Encodable` under any encoder, not only the daemon's:
    /// through Foundation's `JSONEncoder` it reads back as the same value as its spliced bytes.
    @Test func aSplicedSheetEncodesUnderAnotherEncoder() throws {
        let now = CTATime.instant("2015-02-14T14:35:00", in: TestZones.chicago)!
        let fresh = DataFreshness(lastGoodLoad: now.adding(seconds: -30), producedAt: now.adding(seconds: -40), now: now, staleAfterSeconds: 300)
        let data = SheetData(alerts: fresh, stations: fresh, facilities: fresh, zone: TestZones.chicago)
        let encoded = EncodedSnapshot(Snapshot.build(stations: directory, alerts: alerts, now: now), zone: TestZones.chicago)
        var withAlerts = 0
        for index in 0..<encoded.stationCount {
            let sheet = PreEncoded(encoded.stopSheet(at: index), data: data.encoded)
            let spliced = try AnswerDecoder.decode(Answer.Sheet.self, from: JSONParser.parse(sheet.bytes))
            let foundation = try AnswerDecoder.decode(Answer.Sheet.self, from: JSONParser.parse(Array(JSONEncoder().encode(sheet))))
            #expect(foundation == spliced, "station at \(index)")
            if !(spliced.alerts ?? []).isEmpty { withAlerts += 1 }
        }
        #expect(withAlerts > 0, "some sheets hold alerts encoded before")
    }

    @Test func orderedMembersKeepTheirOrderAndEscapeTheirNames() {
        let counts = OrderedMembers([(name: "z", value: 1), (name: "a\"", value: 0)])
        #expect(String(decoding: AnswerEncoding.encode(counts), as: UTF8.self) == #"{"z":1,"a\"":0}"#)
    }

    /// A member name goes unescaped exactly where a string's encoding would leave it as it is: the
    /// ASCII bytes `JSON.encodeString` copies (DEL and the controls it escapes, as it does `"` and
    /// the backslash).
    @Test func aNameNeedsNoEscapeWhereAStringsEncodingCopiesIt() {
        for byte in UInt8(0)..<0x80 {
            var encoded: [UInt8] = []
            JSON.encodeString(String(decoding: [byte], as: UTF8.self), into: &encoded)
            #expect(JSONKey.needsNoEscape([byte]) == (encoded == [UInt8(ascii: "\""), byte, UInt8(ascii: "\"")]), "byte \(byte)")
        }
        #expect(JSONKey.needsNoEscape("stationId".utf8))
        #expect(!JSONKey.needsNoEscape("a\\b".utf8))
    }

    /// An array's container counts what it holds, as `UnkeyedEncodingContainer.count` promises an
    /// `encode(to:)` that reads it.
    @Test func anArraysContainerCountsItsElements() {
        final class Seen: @unchecked Sendable { var counts: [Int] = [] }
        struct ThreeElements: Encodable {
            let seen: Seen
            func encode(to encoder: any Encoder) throws {
                var elements = encoder.unkeyedContainer()
                for value in 1...3 {
                    try elements.encode(value)
                    seen.counts.append(elements.count)
                }
            }
        }
        let seen = Seen()
        #expect(AnswerEncoding.encode(ThreeElements(seen: seen)) == Array("[1,2,3]".utf8))
        #expect(seen.counts == [1, 2, 3])
    }

    /// Every answer the daemon encodes reads back as the value it was made from.
    @Test func answersReadBackAsTheirValues() throws {
        let snapshot = Snapshot.build(stations: directory, alerts: alerts, now: CTATime.instant("2015-02-14T14:35:00", in: TestZones.chicago)!)
        for station in directory.stations.prefix(40) {
            let button = snapshot.stopSheet(for: station).accessibilityButton
            let detail = station.detail(advisories: button.advisories, now: button.now, in: TestZones.chicago)
            let json = try JSONParser.parse(AnswerEncoding.encode(detail))
            #expect(try AnswerDecoder.decode(Answer.Station.self, from: json) == detail)
            // The summary's members first, then the detail's, in one object.
            let summaryKeys = Answer.StationSummary.CodingKeys.allCases.map(\.rawValue)
            #expect(Answer.Station.CodingKeys.allCases.prefix(summaryKeys.count).map(\.rawValue) == summaryKeys)
            #expect(json.objectValue?.keys == Answer.Station.CodingKeys.allCases.map(\.rawValue).filter { $0 != "lines" })
            #expect(try AnswerDecoder.decode(Answer.Station.self, from: json).summary == detail.summary)
        }
        for alert in snapshot.liveAlerts {
            let value = alert.answer(in: TestZones.chicago)
            #expect(try AnswerDecoder.decode(Answer.Alert.self, from: JSONParser.parse(alert.encoded(in: TestZones.chicago).bytes)) == value)
        }
    }
}
