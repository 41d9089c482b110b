import StopSheetCore
import StopSheetTestSupport
import Testing

/// Issue 52's two formats, Deutsche Bahn's FaSta and IDFM's "état des ascenseurs" (CSV and API
/// JSON), read from real captures and from hand-made bodies in their shapes
/// (Tests/Fixtures/facilities/README.md). Times are epoch seconds worked out outside this code
/// (Python's `datetime.fromisoformat` and zoneinfo).
@Suite struct FaStaAndIDFMDecoderTests {
    static let paris = TestZones.rules("Europe/Paris")

    static func at(_ seconds: Int64) -> Instant { Instant(secondsSince1970: seconds) }
    static func point(_ latitude: Double, _ longitude: Double) -> Coordinate { Coordinate(latitude: latitude, longitude: longitude)! }

    @Test func realFaStaUnitsKeepTheirStationNumberAndPosition() throws {
        let feed = try FacilitiesDecoder.decode(json: Fixtures.bytes("facilities/db_fasta_motis.REAL.json"), local: .utc)
        #expect(feed.format == .dbFaSta && !feed.format.saysSince && feed.notices.count == 0)
        #expect(feed.units.count == 9 && feed.units.allSatisfy { $0.status == .available && $0.facility == .elevator && $0.since == nil })
        #expect(feed.units[0] == FacilityUnit(unitID: "10561326", facility: .elevator, status: .available, description: "available",
                                                serving: "FFM HBF zu Gleis 101/102 (S-Bahn)",
                                                location: .init(stationRef: "1866", position: Self.point(50.1072933, 8.6628995))))
        #expect(feed.units.map(\.location.stationRef) == ["1866", "1866", "1864", nil, "1126", "1126", "1126", "1126", "1126"])
        // The unit MOTIS left without stationnumber (and stateExplanation) is listed, with its position.
        #expect(feed.units[3] == FacilityUnit(unitID: "10543458", facility: .elevator, status: .available, serving: "DA HBF zu Gleis 1",
                                                location: .init(position: Self.point(49.8725612, 8.6303864))))
    }

    @Test func faStaStatesMapAndAUnitWithoutStationOrPositionIsKept() throws {
        let feed = try FacilitiesDecoder.decode(json: Fixtures.bytes("facilities/db_fasta.HANDMADE.json"), local: .utc)
        #expect(feed.format == .dbFaSta)
        #expect(feed.units == [
            FacilityUnit(unitID: "10499146", facility: .elevator, status: .notAvailable, description: "under maintenance", serving: "zu Gleis 1/2",
                         location: .init(stationRef: "1071", position: Self.point(52.525589, 13.369549))),
            FacilityUnit(unitID: "10499147", facility: .escalator, status: .available, description: "available",
                         location: .init(stationRef: "1071", position: Self.point(52.52531, 13.36973))),
            FacilityUnit(unitID: "10499148", facility: .elevator, status: .unknown, description: "monitoring disrupted", serving: "zu Gleis [2J 3",
                         location: .init(stationRef: "1071")),
            FacilityUnit(unitID: "10499149", facility: .elevator, status: .unknown, location: .init(stationRef: "1071")),
            FacilityUnit(unitID: "10499150", facility: .elevator, status: .notAvailable, description: "not available", serving: "zu Gleis 5/6",
                         location: .init(position: Self.point(49.8725555, 8.6298163))),
        ])
        // BROKEN and the latitude of 95 (row 4), no equipmentnumber (5), no object (6).
        #expect(feed.notices.count == 4 && feed.notices.first.map(\.line) == [4, 4, 5, 6])
        #expect(feed.notices.first.allSatisfy { $0.file == "FaSta" })
        #expect(feed.notices.first[0].problem.contains("'BROKEN' is none of ACTIVE, INACTIVE, UNKNOWN; read as unknown"))
    }

    @Test func realIDFMExportReadsItsThreeLifts() throws {
        let bytes = Fixtures.bytes("facilities/idfm_etat_des_ascenseurs_2024-04-16_first-3-rows.REAL.csv")
        #expect(FacilitiesDecoder.isCSV(bytes))
        let feed = try FacilitiesDecoder.decode(csv: bytes, local: Self.paris)
        #expect(feed.format == .idfm && feed.format.saysSince && feed.notices.count == 0)
        let lazare = Self.point(48.875937635687144, 2.3252630353731822)
        #expect(feed.units == [
            FacilityUnit(unitID: "259", facility: .elevator, status: .available, since: Self.at(1_713_276_480),
                         serving: "Niveau Intermédiaire - Quai 1, Olympiades", location: .init(stationRef: "71370", position: lazare)),
            FacilityUnit(unitID: "260", facility: .elevator, status: .available, since: Self.at(1_713_276_480),
                         serving: "Niveau Intermédiaire - Quai 2, Terminus", location: .init(stationRef: "71370", position: lazare)),
            FacilityUnit(unitID: "992", facility: .elevator, status: .available, since: Self.at(1_713_276_480), serving: "QX142",
                         location: .init(stationRef: "71475", position: Self.point(48.88783183142733, 2.3150580477407674))),
        ])
    }

    /// The edges of the export: a byte order mark and CRLF, a quoted `;`, an empty status (not
    /// monitored: unknown, never out), a word IDFM does not use, no liftId, no station.
    @Test func idfmCSVEdges() throws {
        let bytes = Fixtures.bytes("facilities/idfm_lifts.HANDMADE.csv")
        #expect(bytes.starts(with: [0xEF, 0xBB, 0xBF]) && FacilitiesDecoder.isCSV(bytes))
        let feed = try FacilitiesDecoder.decode(csv: bytes, local: Self.paris)
        let lazare = Self.point(48.875937635687144, 2.3252630353731822)
        #expect(feed.units == [
            FacilityUnit(unitID: "259", facility: .elevator, status: .available, since: Self.at(1_789_624_800),
                         serving: "Niveau Intermédiaire - Quai 1, Olympiades", location: .init(stationRef: "71370", position: lazare)),
            FacilityUnit(unitID: "260", facility: .elevator, status: .notAvailable, since: Self.at(1_789_589_700), description: "liftFailure",
                         serving: "Quai 2; sortie rue d'Amsterdam, Terminus", location: .init(stationRef: "71370", position: lazare)),
            FacilityUnit(unitID: "992", facility: .elevator, status: .unknown, since: Self.at(1_789_624_680), serving: "QX142",
                         location: .init(stationRef: "71475", position: Self.point(48.88783183142733, 2.3150580477407674))),
            FacilityUnit(unitID: "993", facility: .elevator, status: .unknown, since: Self.at(1_789_624_680), description: "undefinedEquipmentProblem",
                         serving: "Quai ]0;x A", location: .init(stationRef: "71475", position: Self.point(48.8878, 2.3150))),
            // No offset: Paris's wall clock.
            FacilityUnit(unitID: "994", facility: .elevator, status: .notAvailable, since: Self.at(1_789_621_200), serving: "Sortie 2"),
            FacilityUnit(unitID: "995", facility: .elevator, status: .available, since: Self.at(1_789_621_200), serving: "Quai T3",
                         location: .init(stationRef: "72000")),
        ])
        #expect(feed.notices.count == 3 && feed.notices.first.map(\.line) == [5, 6, 8])
        #expect(feed.notices.first[0].problem == "993: liftStatus 'maintenance' is none of available, notavailable or empty; read as unknown")
    }

    @Test func idfmAPIRecordsMapAsTheCSVDoes() throws {
        let feed = try FacilitiesDecoder.decode(json: Fixtures.bytes("facilities/idfm_lifts.HANDMADE.json"), local: Self.paris)
        #expect(feed.format == .idfm)
        let lazare = Self.point(48.875937635687144, 2.3252630353731822)
        #expect(feed.units == [
            FacilityUnit(unitID: "259", facility: .elevator, status: .available, since: Self.at(1_789_624_800),
                         serving: "Niveau Intermédiaire - Quai 1, Olympiades", location: .init(stationRef: "71370", position: lazare)),
            FacilityUnit(unitID: "260", facility: .elevator, status: .notAvailable, since: Self.at(1_789_589_700), description: "liftFailure",
                         serving: "Quai 2, Terminus", location: .init(stationRef: "71370", position: lazare)),
            FacilityUnit(unitID: "992", facility: .elevator, status: .unknown, since: Self.at(1_789_624_680), serving: "QX142",
                         location: .init(stationRef: "71475", position: Self.point(48.88783183142733, 2.3150580477407674))),
        ])
        #expect(feed.notices.count == 1 && feed.notices.first.first?.line == 4 && feed.notices.first.first?.file == "results")
        // The JSON export: the same records as a bare array.
        let document = try #require(try JSONParser.parse(Fixtures.bytes("facilities/idfm_lifts.HANDMADE.json")[...])["results"])
        let export = try FacilitiesDecoder.decode(json: Array(document.encodedString.utf8), local: Self.paris)
        #expect(export.format == .idfm && export.units == feed.units && export.notices.count == 1)
    }

    @Test func onlyAFirstLineNamingZdcIdAndLiftStatusIsTheCSV() {
        #expect(FacilitiesDecoder.isCSV(bytes("\u{FEFF}\"ZdcId\";liftStatus;liftId\r\n1;;2\r\n")))
        #expect(FacilitiesDecoder.isCSV(bytes("zdcid;LIFTSTATUS;liftid")))
        #expect(!FacilitiesDecoder.isCSV(bytes("ZdcId,liftStatus,liftId\n")))
        #expect(!FacilitiesDecoder.isCSV(bytes("ZdcId;ZdcName;liftId\r\n71370;Gare Saint-Lazare;259\r\n")))
        #expect(!FacilitiesDecoder.isCSV(bytes("liftId;liftStatus\nZdcId;liftStatus\n")))
        #expect(!FacilitiesDecoder.isCSV(bytes(#"[{"ZdcId":1,"liftStatus":""}]"#)))
        #expect(!FacilitiesDecoder.isCSV([0xFF, 0xFE] + bytes("ZdcId;liftStatus")))
    }

    /// A hostile or broken body is a failure that says why (the daemon then keeps its last good
    /// data); one past the item cap is refused before its rows are read.
    @Test func hostileBodiesAreRefused() {
        let many = "[" + (0..<11).map { #"{"equipmentnumber":\#($0),"state":"INACTIVE"}"# }.joined(separator: ",") + "]"
        #expect(failure { try FacilitiesDecoder.decode(json: bytes(many), local: .utc, limits: DecodingLimits(maxItems: 10)) } == .tooMany(count: nil, limit: 10))
        let rows = "ZdcId;liftStatus;liftId\r\n" + (0..<11).map { "1;available;\($0)\r\n" }.joined()
        #expect(failure { try FacilitiesDecoder.decode(csv: bytes(rows), local: .utc, limits: DecodingLimits(maxItems: 10)) } == .tooMany(count: 11, limit: 10))
        #expect(failure { try FacilitiesDecoder.decode(csv: bytes("ZdcId;liftStatus\r\n") + [0xC3, 0x28], local: .utc) } == .invalidUTF8(offset: 18))
        #expect(failure { try FacilitiesDecoder.decode(csv: bytes("ZdcId;liftStatus\r\n1;available\r\n"), local: .utc) }
                == .malformed(path: "etat-des-ascenseurs.csv", reason: "the header has no liftId"))
        #expect(failure { try FacilitiesDecoder.decode(json: bytes(#"{"total_count":1,"results":{}}"#), local: .utc) }
                == .malformed(path: "results", reason: "expected an array, found an object"))
        var deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        deep = #"{"total_count":1,"results":[{"liftid":"1","zdcid":"#  + deep + "}]}"
        #expect(failure { try FacilitiesDecoder.decode(json: bytes(deep), local: .utc) } != nil)
        // An empty results array is a feed of no lifts, not a failure.
        #expect(failure { try FacilitiesDecoder.decode(json: bytes(#"{"total_count":0,"results":[]}"#), local: .utc) } == nil)
    }
}
