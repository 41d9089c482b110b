import StopSheetCore
import Testing

/// GTFS `stops.txt` on the real CTA rows of 2022-01 (`gtfs_stops_2022-01.RAIL_SUBSET.txt`):
/// stations, platforms, entrances, `wheelchair_boarding` inheritance, and the bus bays CTA
/// parents to rail stations.
@Suite struct GTFSStopsDecoderTests {
    static let file = "gtfs_stops_2022-01.RAIL_SUBSET.txt"

    /// The rows as plain dictionaries, read by the CSV reader alone: the expectations below
    /// apply the GTFS reference's words to them directly, not through the decoder.
    static func rows() throws -> [[String: String]] {
        let table = try CSVReader.rows(Fixtures.bytes(file))
        return table.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(table[0], $0)) }
    }

    static func directory() throws -> StationDirectory {
        StationDirectory(try StationsDecoder.decodeStations(Fixtures.bytes(file)))
    }

    /// The stations whose step-free access is unknown; every other one is available, none is
    /// `none` and none partial. Written out from the file with Python's csv module and the GTFS
    /// reference's words (`1` accessible, `2` not, `0` or empty: the parent station's value), not
    /// through the decoder, so the test does not check the code against itself.
    static let unknownStations: Set<String> = [
        "40010", "40060", "40080", "40100", "40160", "40180", "40220", "40260", "40270", "40320", "40370", "40400", "40430", "40470",
        "40490", "40520", "40550", "40570", "40590", "40610", "40650", "40680", "40690", "40790", "40840", "40880", "40920", "40970",
        "40980", "41090", "41190", "41200", "41250", "41260", "41330", "41340", "41350", "41380", "41410", "41490",
    ]

    @Test func everyStationsAggregateAndPartialFollowTheReference() throws {
        let rows = try Self.rows()
        let stations = Dictionary(uniqueKeysWithValues: rows.filter { $0["location_type"] == "1" }.map { ($0["stop_id"]!, $0) })
        let directory = try Self.directory()
        #expect(directory.count == stations.count)
        #expect(directory.count == 141)
        #expect(!directory.linesKnown)

        var checked = 0
        for (id, station) in stations {
            let children = rows.filter { $0["parent_station"] == id && $0["location_type"] == "0" && $0["stop_id"]!.hasPrefix("3") }
            let served = try #require(directory.station(for: id), "station \(id)")
            #expect(served.name == StationDirectory.normalisedName(station["stop_name"]!))
            #expect(served.platforms.map(\.stopID).sorted() == children.map { $0["stop_id"]! }.sorted(), "\(id)")
            #expect(served.stepFree == (Self.unknownStations.contains(id) ? .unknown : .available), "\(id) \(served.name)")
            #expect(!served.partial, "\(id) \(served.name): no station's platforms disagree in this vintage")
            #expect(served.routes == [], "stops.txt alone names no lines")
            checked += 1
        }
        #expect(checked == 141)
        #expect(Self.unknownStations.count == 40)
    }

    /// The four stations the data's README names: parent `1`, platforms `0`.
    @Test(arguments: ["63rd", "Cermak-Chinatown", "Garfield (Red)", "87th"])
    func platformsWithZeroInheritAnAccessibleParent(name: String) throws {
        let rows = try Self.rows()
        let station = try #require(rows.first { $0["location_type"] == "1" && $0["stop_name"] == name }, "\(name)")
        #expect(station["wheelchair_boarding"] == "1")
        let served = try #require(try Self.directory().station(for: station["stop_id"]!))
        let raw = rows.filter { $0["parent_station"] == station["stop_id"] && $0["stop_id"]!.hasPrefix("3") }.map { $0["wheelchair_boarding"] }
        #expect(raw.allSatisfy { $0 == "0" }, "\(name): the vintage's quirk")
        #expect(served.platforms.allSatisfy { $0.stepFree == true }, "\(name): 0 inherits the station's 1 (not unknown, as OTP #2493 reads it)")
        #expect(served.stepFree == .available)
    }

    /// `maxItems` bounds a table's rows: one more is a failure, never a truncation.
    @Test func aTableOfMoreRowsThanTheLimitFails() {
        let table = Array("stop_id,stop_name\na,A\nb,B\nc,C\n".utf8)
        #expect(failure { try GTFSStopsDecoder.decode(table, limits: DecodingLimits(maxItems: 3)) } == nil)
        #expect(failure { try GTFSStopsDecoder.decode(table, limits: DecodingLimits(maxItems: 2)) } == .tooMany(count: 3, limit: 2))
    }

    @Test func aStationWithZeroIsUnknownNotInaccessible() throws {
        let rows = try Self.rows()
        let zero = rows.filter { $0["location_type"] == "1" && $0["wheelchair_boarding"] == "0" }
        #expect(zero.count == 40)
        let directory = try Self.directory()
        for station in zero {
            let served = try #require(directory.station(for: station["stop_id"]!))
            let platforms = rows.filter { $0["parent_station"] == station["stop_id"] && $0["stop_id"]!.hasPrefix("3") }
            if platforms.allSatisfy({ $0["wheelchair_boarding"] == "0" }) { #expect(served.stepFree == .unknown, "\(served.name)") }
        }
    }

    @Test func busBaysParentedToRailStationsAreNotPlatforms() throws {
        let rows = try Self.rows()
        let bays = rows.filter { $0["location_type"] == "0" && !$0["stop_id"]!.hasPrefix("3") }
        #expect(bays.count == 20)
        #expect(bays.allSatisfy { $0["stop_id"]!.hasPrefix("14") || $0["stop_id"]!.hasPrefix("17") })
        let directory = try Self.directory()
        for bay in bays {
            let station = try #require(directory.station(for: bay["parent_station"]!))
            #expect(!station.platforms.contains { $0.stopID == bay["stop_id"] })
            #expect(directory.station(for: bay["stop_id"]!) == nil, "a bus bay id does not resolve to the station")
        }
        #expect(directory.stations.reduce(0) { $0 + $1.platforms.count } == 294)
    }

    @Test func entrancesAreListedWithTheirOwnValue() throws {
        let directory = try Self.directory()
        let clarkDivision = try #require(directory.station(for: "40630"))
        #expect(clarkDivision.entrances.map(\.id) == ["60000", "60001", "60002", "60003", "60004", "60005", "60006"])
        #expect(clarkDivision.entrances.map(\.stepFree) == [false, false, false, false, false, false, true])
        #expect(clarkDivision.entrances.last?.name == "Clark/Division (LaSalle/Division SE corner elevator)")
        #expect(directory.stations.reduce(0) { $0 + $1.entrances.count } == 14)
    }

    @Test func anEntranceInheritsTooAndStationValuesAreExact() throws {
        let text = """
            stop_id,stop_name,location_type,parent_station,wheelchair_boarding
            40001,A,1,,1
            30001,A platform,0,40001,
            60001,A entrance,2,40001,0
            40002,B,1,,2
            30002,B platform,0,40002,0
            30003,B platform 2,0,40002,1
            40003,C,1,,
            30004,C platform,0,40003,0
            """
        let decoded = try StationsDecoder.decodeStations(bytes(text))
        #expect(decoded.platforms.map(\.stepFree) == [true, false, true, nil])
        #expect(decoded.entrances == [Entrance(id: "60001", stationID: "40001", name: "A entrance", stepFree: true)])
        let directory = StationDirectory(decoded)
        #expect(directory.station(for: "40002")?.partial == true)
        #expect(directory.station(for: "40003")?.stepFree == .unknown)
    }

    @Test func crlfQuotesAndByteOrderMarkReadTheSame() throws {
        let original = Fixtures.bytes(Self.file)
        let crlf = Array(String(decoding: original, as: UTF8.self).replacingOccurrences("\n", "\r\n").utf8)
        let expected = try StationsDecoder.decodeStations(original)
        #expect(try StationsDecoder.decodeStations(crlf) == expected)
        #expect(try StationsDecoder.decodeStations([0xEF, 0xBB, 0xBF] + original) == expected)
    }

    @Test func badRowsAndValuesAreNoticesNotFailures() throws {
        let text = """
            stop_id,stop_name,parent_station,location_type,wheelchair_boarding,stop_lat,stop_lon
            40001,A,,1,,41.8,-87.6
            30001,A 1,40001,0,3,41.8,-87.6
            30002,A 2,40001,x,,41.8,-87.6
            ,A 3,40001,0,,41.8,-87.6
            30004,A 4,49999,0,,41.8,-87.6
            30001,A 1 again,40001,0,,41.8,-87.6
            30005,A 5,40001,0,,91,-87.6
            30006,A 6,40001
            50001,N,50002,3,,,
            50002,N,50001,3,,,

            """
        let decoded = try StationsDecoder.decodeStations(bytes(text))
        #expect(decoded.platforms.map(\.stopID) == ["30001", "30005"])
        #expect(decoded.platforms[0].stepFree == nil)
        #expect(decoded.notices.count == 9)
        #expect(decoded.notices.first.map { "\($0.file):\($0.line): \($0.problem)" } == [
            "stops.txt:3: wheelchair_boarding '3' is not 0, 1 or 2: read as unknown",
            "stops.txt:4: location_type 'x' is not a number: row skipped",
            "stops.txt:5: empty stop_id: row skipped",
            "stops.txt:8: stop_lat/stop_lon '91', '-87.6' is not a coordinate: position unknown",
            "stops.txt:9: 3 fields, the header has 7: row skipped",
            "stops.txt:7: stop_id '30001' repeats an earlier row: row skipped",
            "stops.txt:6: parent_station '49999' names no stop: row skipped",
            "stops.txt:10: parent_station '50002' leads back to this stop: row skipped",
            "stops.txt:11: parent_station '50001' leads back to this stop: row skipped",
        ])
    }

    /// A cycle through three stops is found as a two-stop one is: following parents from any of
    /// them comes back to it, so each row is skipped with its own notice. A platform in a cycle
    /// with its station is skipped too: no platform of that station, nor of any other.
    @Test func aParentCycleThroughThreeStopsSkipsEachRow() throws {
        let text = """
            stop_id,stop_name,parent_station,location_type
            40001,A,,1
            30001,A 1,40001,0
            60001,N,60002,3
            60002,N,60003,3
            60003,N,60001,3
            40002,B,30002,1
            30002,B 1,40002,0

            """
        let decoded = try StationsDecoder.decodeStations(bytes(text))
        #expect(decoded.platforms.map(\.stopID) == ["30001"])
        #expect(decoded.notices.first.map { "\($0.file):\($0.line): \($0.problem)" } == [
            "stops.txt:4: parent_station '60002' leads back to this stop: row skipped",
            "stops.txt:5: parent_station '60003' leads back to this stop: row skipped",
            "stops.txt:6: parent_station '60001' leads back to this stop: row skipped",
            "stops.txt:7: parent_station '30002' leads back to this stop: row skipped",
            "stops.txt:8: parent_station '40002' leads back to this stop: row skipped",
        ])
    }

    @Test func aMissingStopIDColumnFailsNamingFileLineAndColumn() {
        #expect(failure { try GTFSStopsDecoder.decode(bytes("stop_code,parent_station\n1,\n")) }?.description
            == "malformed upstream data at stops.txt line 1 column stop_id: no such column in the header")
    }
}

extension String {
    /// Without Foundation: every occurrence of `target` replaced.
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
