import Testing
import StopSheetCore
import StopSheetProtocol
import StopSheetTestSupport
@testable import StopSheetDaemon

/// The daemon's answers are `Answer` values encoded by `AnswerEncoding`; a snapshot's sheets are
/// put together from pieces encoded once (`PreEncoded`). These check that the pieces give the
/// same bytes as the value they stand for, and the encoder's rules: members in `CodingKeys`
/// order, `null` for an absent member unless it is omittable, escapes, numbers.
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
                let spliced = encoded.stopSheet(at: index).object(filling: data.encoded)
                let whole = AnswerEncoding.encode(answer(snapshot.stopSheet(for: station), data: data, in: TestZones.chicago))
                #expect(spliced == whole, "station \(station.id)")
            }
        }
    }

    /// A template's slot left as a hole takes its value where its member stands among the
    /// others, in `CodingKeys` order, wherever that is: here the second of four.
    @Test func aHolesValueGoesWhereItsMemberStands() throws {
        let stopID = Slot<String>(index: 0), name = Slot<String>(index: 1)
        let template = EncodedTemplate(members: Answer.PlatformAccessOf(stopId: stopID, name: name, entry: true, exit: nil), slots: 2)
        let members = template.members(capacity: 0) { fill in
            fill.put(stopID, "30374")
            fill.leave(name)
        }
        #expect(members.hole?.before == 1)
        #expect(members.object(filling: PreEncoded("Clark/Lake \"Loop\""))
            == AnswerEncoding.encode(Answer.PlatformAccess(stopId: "30374", name: "Clark/Lake \"Loop\"", entry: true, exit: nil)))
    }

    /// Every shape of `now` from templates is the bytes of its value: each verdict, basis and
    /// completeness, and platforms with every pair of entry and exit, names that need escapes.
    @Test func everyShapeOfNowFromTemplatesIsTheBytesOfItsValue() {
        let answers: [Bool?] = [nil, true, false]
        let platforms = answers.flatMap { entry in
            answers.map { exit in StepFreeNow.PlatformAccess(stopID: "P\(String(describing: entry))\(String(describing: exit))", name: "\"Quai\" é\n", entry: entry, exit: exit) }
        }
        let outage = StepFreeNow.Outage(alertID: "a", facility: .elevator, facilityID: "7", pathways: ["p1"])
        for verdict in StepFreeNow.Verdict.allCases {
            for basis in StepFreeNow.Basis.allCases {
                for complete in [false, true] {
                    for (platforms, outages) in [(platforms, [outage]), ([], [])] {
                        let now = StepFreeNow(stepFree: verdict, basis: basis, complete: complete, platforms: platforms, outages: outages)
                        #expect(now.encoded(in: TestZones.chicago).bytes == AnswerEncoding.encode(now.answer(in: TestZones.chicago)), "\(now)")
                    }
                }
            }
        }
    }

    /// Every station's `now`, written from templates, is the bytes of its value, on a real
    /// metro's pathways (entry and exit each true, false or null; outages) and on CTA's stations.
    @Test func nowFromTemplatesIsTheBytesOfItsValue() throws {
        let prague = try EncodedStepFreeNowTests.directory()
        let outage = EncodedStepFreeNowTests.outage
        for (directory, alerts) in [(prague, [outage]), (prague, []), (directory, alerts)] {
            let snapshot = Snapshot.build(stations: directory, alerts: alerts, now: Instant(secondsSince1970: 1_000))
            for station in directory.stations {
                let now = snapshot.stopSheet(for: station).accessibilityButton.now
                #expect(now.encoded(in: TestZones.chicago).bytes == AnswerEncoding.encode(now.answer(in: TestZones.chicago)), "\(station.id)")
            }
        }
    }

    @Test func anAbsentMemberIsNullUnlessOmittable() {
        let freshness = Answer.Freshness(loaded: false, ageSeconds: nil, stale: true, producedAt: nil, configured: true)
        #expect(String(decoding: AnswerEncoding.encode(freshness), as: UTF8.self)
            == #"{"loaded":false,"ageSeconds":null,"stale":true,"producedAt":null,"configured":true}"#)
        let scopes = [Answer.Scope(type: .systemwide, id: nil, routeType: nil), Answer.Scope(type: .routeType, id: nil, routeType: -1)]
        #expect(String(decoding: AnswerEncoding.encode(scopes), as: UTF8.self) == #"[{"type":"systemwide"},{"type":"routeType","routeType":-1}]"#)
    }

    @Test func stringsAreEscapedAndNumbersExact() {
        let notice = Answer.Notices(count: Int.min, first: [Answer.Notice(file: "a\"b\\c\n\u{1}é", line: Int.max, problem: "")])
        #expect(String(decoding: AnswerEncoding.encode(notice), as: UTF8.self)
            == #"{"count":-9223372036854775808,"first":[{"file":"a\"b\\c\n\u0001é","line":9223372036854775807,"problem":""}]}"#)
    }

    @Test func orderedMembersKeepTheirOrderAndEscapeTheirNames() {
        let counts = OrderedMembers([(name: "z", value: 1), (name: "a\"", value: 0)])
        #expect(String(decoding: AnswerEncoding.encode(counts), as: UTF8.self) == #"{"z":1,"a\"":0}"#)
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
            #expect(json.objectValue?.keys == Answer.StationSummary.CodingKeys.allCases.map(\.rawValue).filter { $0 != "lines" }
                + Answer.Station.CodingKeys.allCases.map(\.rawValue))
        }
        for alert in snapshot.liveAlerts {
            let value = alert.answer(in: TestZones.chicago)
            #expect(try AnswerDecoder.decode(Answer.Alert.self, from: JSONParser.parse(alert.encoded(in: TestZones.chicago).bytes)) == value)
        }
    }

    /// An alert refresh takes from the snapshot before the sheets whose alerts and `now` did not
    /// change, and makes the others: every sheet is then what a fresh build makes.
    @Test func anAlertRefreshKeepsOnlyWhatDidNotChange() throws {
        let capture = CTATime.instant("2015-02-14T14:35:00", in: TestZones.chicago)!
        let first = EncodedSnapshot(Snapshot.build(stations: directory, alerts: alerts, now: capture), zone: TestZones.chicago)
        var changed = alerts
        let liveID = try #require(first.snapshot.liveAlerts.first?.alert.id)
        let edited = try #require(changed.indices.first { changed[$0].id == liveID })
        changed[edited].headline += " (updated)"
        let touched = try #require(directory.stations.first { station in first.snapshot.alerts(applyingTo: station).contains { $0.alert.id == liveID } })
        changed.removeLast()
        let snapshot = Snapshot.build(stations: directory, alerts: changed, now: capture)
        let refreshed = EncodedSnapshot(snapshot, zone: TestZones.chicago, previous: first)
        let fresh = EncodedSnapshot(snapshot, zone: TestZones.chicago)
        var kept = 0
        for index in directory.stations.indices {
            #expect(refreshed.stopSheet(at: index) == fresh.stopSheet(at: index), "station \(directory.stations[index].id)")
            kept += refreshed.stopSheet(at: index).pieces.elementsEqual(first.stopSheet(at: index).pieces) { a, b in
                a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { $0.baseAddress == x.baseAddress } }
            } ? 1 : 0
        }
        #expect(kept > 0 && kept < directory.stations.count, "\(kept) of \(directory.stations.count) sheets kept")
        #expect(refreshed.stopSheet(stopID: touched.id) != first.stopSheet(stopID: touched.id))
    }
}
