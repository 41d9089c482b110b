import StopSheetCore
import StopSheetTestSupport
import Testing

/// The three lift-status formats read from hand-made fixtures in their publishers' shapes
/// (Tests/Fixtures/facilities/README.md); times checked against epoch seconds worked out
/// outside this code (Python's zoneinfo).
@Suite struct FacilitiesDecoderTests {
    static let newYork = TestZones.rules("America/New_York")
    static let berlin = TestZones.rules("Europe/Berlin")

    static func at(_ seconds: Int64) -> Instant { Instant(secondsSince1970: seconds) }

    @Test func wmataRowsAreOutagesPlacedByStationCodeAndLevels() throws {
        let feed = try FacilitiesDecoder.decode(json: Fixtures.bytes("facilities/wmata_elevator_incidents.HANDMADE.json"), local: Self.newYork)
        #expect(feed.format == .wmata)
        #expect(feed.units == [
            FacilityUnit(unitID: "A03N04", facility: .elevator, status: .notAvailable, since: Self.at(1_789_032_600),
                           expectedBack: Self.at(1_793_505_599),
                           description: "Elevator between street and mezzanine (Q Street side): Modernization",
                           location: .init(stationCode: "A03", levels: ["street", "mezzanine"])),
            FacilityUnit(unitID: "A03N04", facility: .escalator, status: .notAvailable, since: Self.at(1_789_581_900),
                           description: "Escalator between mezzanine and platform: Service Call",
                           location: .init(stationCode: "A03", levels: ["mezzanine", "platform"])),
        ])
        #expect(feed.notices.count == 1 && feed.notices.first.first?.line == 3 && feed.notices.first.first?.file == "ElevatorIncidents")
    }

    @Test func nyctRowsKeepUpcomingOutagesForTheirWindow() throws {
        let feed = try FacilitiesDecoder.decode(json: Fixtures.bytes("facilities/nyct_ene.HANDMADE.json"), local: Self.newYork)
        #expect(feed.format == .nyct && feed.notices.count == 0)
        #expect(feed.units.map(\.unitID) == ["EL318", "EL319", "ES258X"])
        #expect(feed.units[0] == FacilityUnit(unitID: "EL318", facility: .elevator, status: .notAvailable, since: Self.at(1_789_529_400),
                                                   expectedBack: Self.at(1_789_765_200),
                                                   description: "street to mezzanine for service in both directions (Repair)", isADA: true))
        let upcoming = feed.units[1]
        #expect(upcoming.isUpcoming && upcoming.since == Self.at(1_790_647_200) && upcoming.expectedBack == Self.at(1_790_676_000))
        #expect(upcoming.status(at: Self.at(1_790_647_199)) == .available)
        #expect(upcoming.status(at: Self.at(1_790_647_200)) == .notAvailable)
        #expect(upcoming.status(at: Self.at(1_790_676_000)) == .available)
        // A current outage whose expected return has passed is still out: the feed still lists it.
        #expect(feed.units[0].status(at: Self.at(1_800_000_000)) == .notAvailable)
        #expect(feed.units[2].facility == .escalator && feed.units[2].isADA == false)
    }

    /// An outage date in another form is a notice naming the unit, and the outage stands with
    /// its start unknown; a row that gives no outage date is no fault of the feed's.
    @Test func nyctOutageDateInAnotherFormIsANoticeAndAMissingOneIsNot() throws {
        let body = #"""
            [{"equipment":"EL100","equipmenttype":"EL","outagedate":"2026-09-15T23:30:00"},
             {"equipment":"EL101","equipmenttype":"EL"},
             {"equipment":"EL102","equipmenttype":"EL","outagedate":"09/15/2026 11:30:00 PM"}]
            """#
        let feed = try FacilitiesDecoder.decode(json: Array(body.utf8), local: Self.newYork)
        #expect(feed.units.map(\.unitID) == ["EL100", "EL101", "EL102"])
        #expect(feed.units.map { $0.since == nil } == [true, true, false])
        #expect(feed.notices.first.map { "\($0.file):\($0.line): \($0.problem)" } == [
            "nyct_ene:1: EL100: outagedate is not MM/DD/YYYY hh:mm:ss AM",
        ])
    }

    @Test func nyctTimesAreTwelveHourClock() {
        #expect(NYCTTimeProbe.wall("12/04/2024 12:15:00 AM") == WallClock(year: 2024, month: 12, day: 4, hour: 0, minute: 15))
        #expect(NYCTTimeProbe.wall("12/04/2024 12:15:00 PM") == WallClock(year: 2024, month: 12, day: 4, hour: 12, minute: 15))
        #expect(NYCTTimeProbe.wall("12/04/2024 13:15:00 PM") == nil)
        #expect(NYCTTimeProbe.wall("2024-12-04T12:15:00") == nil)
    }

    @Test func siriConditionsMapEachStatus() throws {
        let root = MarkupElement(name: "Siri", children: [MarkupElement(name: "ServiceDelivery", children: [
            MarkupElement(name: "ResponseTimestamp", text: "2026-09-17T08:00:00+02:00"),
            MarkupElement(name: "FacilityMonitoringDelivery", children: [
                MarkupElement(name: "FacilityCondition", children: [
                    MarkupElement(name: "FacilityRef", text: " diid:1 "),
                    MarkupElement(name: "FacilityStatus", children: [MarkupElement(name: "Status", text: "notAvailable"),
                                                                     MarkupElement(name: "Description", text: "Lift\u{1B}[31m out\n")]),
                    MarkupElement(name: "ValidityPeriod", children: [MarkupElement(name: "StartTime", text: "2026-09-16T22:15:00+02:00"),
                                                                     MarkupElement(name: "EndTime", text: "2026-09-18T12:00:00")]),
                ]),
                MarkupElement(name: "FacilityCondition", children: [
                    MarkupElement(name: "Facility", children: [
                        MarkupElement(name: "FacilityCode", text: "ELEV-7"), MarkupElement(name: "FacilityClass", text: "lift"),
                        MarkupElement(name: "Description", text: "Lift street to concourse"),
                        MarkupElement(name: "FacilityLocation", children: [MarkupElement(name: "StopPlaceRef", text: "U1234")]),
                    ]),
                    MarkupElement(name: "FacilityStatus", children: [MarkupElement(name: "Status", text: "partiallyAvailable")]),
                ]),
                MarkupElement(name: "FacilityCondition", children: [
                    MarkupElement(name: "FacilityRef", text: "diid:3"),
                    MarkupElement(name: "FacilityStatus", children: [MarkupElement(name: "Status", text: "broken")]),
                ]),
                MarkupElement(name: "FacilityCondition", children: [MarkupElement(name: "FacilityStatus")]),
            ]),
        ])])
        let feed = try FacilitiesDecoder.decode(siri: root, local: Self.berlin)
        #expect(feed.format == .siriFM && feed.producedAt == Self.at(1_789_624_800))
        #expect(feed.units == [
            FacilityUnit(unitID: "diid:1", facility: .other, status: .notAvailable, since: Self.at(1_789_589_700),
                           expectedBack: Self.at(1_789_725_600), description: "Lift [31m out"),
            FacilityUnit(unitID: "ELEV-7", facility: .elevator, status: .partiallyAvailable, description: "Lift street to concourse",
                           location: .init(stopIDs: ["U1234"])),
            FacilityUnit(unitID: "diid:3", facility: .other, status: .unknown),
        ])
        #expect(feed.notices.count == 2 && feed.notices.first.map(\.line) == [3, 4])
    }

    /// A condition's status text says what is wrong now; the facility's own text only says what
    /// the unit is, so it stands in only when the status has none.
    @Test func siriStatusDescriptionWinsOverTheFacilitysOwn() throws {
        func condition(_ status: MarkupElement...) -> MarkupElement {
            MarkupElement(name: "FacilityCondition", children: [
                MarkupElement(name: "Facility", children: [MarkupElement(name: "FacilityCode", text: "ELEV-7"),
                                                           MarkupElement(name: "Description", text: "Lift street to concourse")]),
                MarkupElement(name: "FacilityStatus", children: [MarkupElement(name: "Status", text: "notAvailable")] + status),
            ])
        }
        let root = MarkupElement(name: "Siri", children: [MarkupElement(name: "ServiceDelivery", children: [
            MarkupElement(name: "FacilityMonitoringDelivery", children: [
                condition(MarkupElement(name: "Description", text: "Out of order until Friday")),
                condition(),
            ]),
        ])])
        let feed = try FacilitiesDecoder.decode(siri: root, local: Self.berlin)
        #expect(feed.units.map(\.description) == ["Out of order until Friday", "Lift street to concourse"])
    }

    @Test func otherBodiesAreNamedFailures() {
        #expect(failure { try FacilitiesDecoder.decode(json: bytes(#"{"alerts":[]}"#), local: Self.newYork) }
                == .unrecognisedFormat("JSON root object has keys 'alerts' (expected 'ElevatorIncidents', NYCT's ENE array, TfL's lift disruptions, DB's FaSta or IDFM's 'results')"))
        #expect(failure { try FacilitiesDecoder.decode(json: bytes(#"[{"id":1}]"#), local: Self.newYork) }
                == .unrecognisedFormat("JSON array whose first element has neither 'equipment' (NYCT's ENE outages) nor 'disruptedLiftUniqueIds' (TfL's lift disruptions) nor 'equipmentnumber' (DB's FaSta) nor 'liftid' (IDFM's lifts)"))
        #expect(failure { try FacilitiesDecoder.decode(json: bytes(#"{"ElevatorIncidents":{}}"#), local: Self.newYork) }
                == .malformed(path: "ElevatorIncidents", reason: "expected an array, found an object"))
        #expect(failure { try FacilitiesDecoder.decode(siri: MarkupElement(name: "html"), local: Self.berlin) }
                == .unrecognisedFormat("XML root element is 'html', not 'Siri'"))
        #expect(failure { try FacilitiesDecoder.decode(json: bytes("[]"), local: Self.newYork) } == nil)
    }

    @Test func inventoriesFromNYCTEquipmentsAndTheCSV() throws {
        let nyct = try FacilityInventoryDecoder.decode(Fixtures.bytes("facilities/nyct_ene_equipments.HANDMADE.json"))
        #expect(nyct.inventory.rows == [
            .init(unitID: "EL318", stopIDs: ["A41", "R29"], isADA: true, isRedundant: false, serving: "street to mezzanine for service in both directions"),
            .init(unitID: "EL319", stopIDs: ["A41"], isADA: true, isRedundant: true, serving: "mezzanine to Manhattan-bound A/C platform"),
            .init(unitID: "ES258X", stopIDs: [], isADA: false, isRedundant: false, serving: "mezzanine to street"),
        ])
        let csv = try FacilityInventoryDecoder.decode(Fixtures.bytes("facilities/inventory.HANDMADE.csv"))
        #expect(csv.inventory.rows == [.init(unitID: "ELEV-7", pathwayID: "P7"), .init(unitID: "EL318", stopIDs: ["A41"]),
                                        .init(unitID: "EL318", stopIDs: ["R29"])])
        #expect(csv.inventory.rows(for: "EL318").map(\.stopIDs) == [["A41"], ["R29"]])
        #expect(csv.notices.count == 2 && csv.notices.first.map(\.line) == [5, 6])
        #expect(failure { try FacilityInventoryDecoder.decode(bytes("unit,stop\nA,B\n")) }
                == .unrecognisedFormat("neither JSON nor a CSV whose header has facility_id or LiftUniqueId"))
    }

    /// One rule for the characters that are not text (`UpstreamText.isUnsafe`, which stopsheetctl
    /// escapes too): a unit's description and what an inventory row serves are made plain by it.
    @Test func feedTextIsMadePlainByTheOneRule() throws {
        #expect(UpstreamText.plain("  Out\u{1B}]0;pwned\u{07} of\u{202E} service \r\n") == "Out ]0;pwned of service")
        #expect(UpstreamText.plain(String(repeating: "x", count: 400)).count == 300)
        // C1, zero-width, bidi mark, line separator, private use, soft hyphen; a no-break space is a space.
        let hostile = "a\u{9B}2Jb\u{200B}c\u{200E}d\u{2028}e\u{E000}f\u{AD}g\u{A0}h"
        #expect(UpstreamText.plain(hostile) == "a 2Jb c d e f g h")
        #expect(!UpstreamText.plain(hostile).unicodeScalars.contains(where: UpstreamText.isUnsafe))
        #expect(hostile.unicodeScalars.filter(UpstreamText.isUnsafe).map(\.value) == [0x9B, 0x200B, 0x200E, 0x2028, 0xE000, 0xAD])
        let wmata = Array(#"{"ElevatorIncidents":[{"UnitName":"A01N01","UnitType":"ELEVATOR","LocationDescription":"Street\u200bto\u001b[2Jplatform"}]}"#.utf8)
        #expect(try FacilitiesDecoder.decode(json: wmata, local: Self.newYork).units.map(\.description) == ["Street to [2Jplatform"])
        let equipments = Array(#"[{"equipmentno":"EL1","serving":"  street\u2066 to\r\nplatform "}]"#.utf8)
        #expect(try FacilityInventoryDecoder.decode(equipments).inventory.rows.map(\.serving) == ["street to platform"])
    }

    /// A fuzz finding (issue 45, the facilities target): a space falling at the 300th character
    /// was kept as the text's last, so the cut text was not trimmed (and made safe again, it
    /// changed). Where the cut meets a space, the text ends before it.
    @Test func theCutAtThreeHundredCharactersLeavesNoTrailingSpace() throws {
        for length in 297...301 {
            let text = String(repeating: "x", count: length) + " \u{1B} yz" + String(repeating: "y", count: 10)
            let safe = UpstreamText.plain(text)
            #expect(safe.count <= UpstreamText.maxPlainCharacters && safe.last != " " && UpstreamText.plain(safe) == safe, "\(length): '\(safe.suffix(5))'")
        }
        // The fuzzer's WMATA body, whose location and symptom texts joined met the cut at a space.
        let feed = try FacilitiesDecoder.decode(json: Fixtures.bytes("fuzz-findings/facilities-wmata-space-at-the-cut.json"), local: Self.newYork)
        #expect(!feed.units.isEmpty && feed.units.allSatisfy { $0.description.last != " " && UpstreamText.plain($0.description) == $0.description })
    }
}

/// NYCT's time form, through the decoder (its reader is internal to the core).
enum NYCTTimeProbe {
    static func wall(_ text: String) -> WallClock? {
        let body = #"[{"equipment":"E","outagedate":"\#(text)"}]"#
        let rules = TimeZoneRules.utc
        guard let feed = try? FacilitiesDecoder.decode(json: Array(body.utf8), local: rules), let since = feed.units.first?.since else { return nil }
        return rules.wallClock(since)
    }
}
