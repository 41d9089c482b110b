import StopSheetCore
import Testing

/// Lines from a GTFS feed's routes, trips and stop times, streamed in chunks of any size. The
/// stops are real CTA rows (`gtfs_stops_2022-01.RAIL_SUBSET.txt`); the routes, trips and stop
/// times below are MADE FOR THE TEST.
@Suite struct GTFSStopLinesTests {
    // Made for the test: two rail routes in CTA's spelling, one in another spelling (kept as
    // spelled: a feed's route_id is the line), a bus route.
    static let routes = """
        route_id,route_short_name,route_long_name,route_type
        Red,,Red Line,1
        Brn,,Brown Line,1
        Pnk,,Pink Line,1
        22,22,Clark,3
        """
    static let trips = """
        route_id,service_id,trip_id,direction_id
        Red,1,R1,0
        Red,1,R2,1
        Brn,1,B1,0
        Pnk,1,P1,0
        22,1,X1,0
        """
    // 30374/30375 are Clark/Lake's Blue platforms, 30074/30075 its Loop platforms, 14003 a bus
    // bay of 95th; R1's stops are split across the whole table, as a feed may list them.
    static let stopTimes = """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        R1,08:00:00,08:00:00,30089,1
        R2,08:00:00,08:00:00,30088,1
        B1,08:00:00,08:00:00,30074,1
        B1,08:01:00,08:01:00,30075,2
        P1,08:00:00,08:00:00,30074,1
        X1,08:00:00,08:00:00,14003,1
        X1,08:05:00,08:05:00,30374,2
        R1,08:10:00,08:10:00,30088,2
        """

    static func feed(chunk size: Int) throws -> GTFSStopLines {
        var lines = GTFSStopLines()
        for (table, text) in zip([GTFSStopLines.Table.routes, .trips, .stopTimes], [routes, trips, stopTimes]) {
            lines.begin(table)
            let body = Array(text.utf8)
            var start = 0
            while start < body.count {
                try lines.consume(body[start..<min(body.count, start + size)])
                start += size
            }
            try lines.end()
        }
        return lines
    }

    static func lines(chunk size: Int) throws -> [String: [RouteID]] { try feed(chunk: size).linesByStopID }

    @Test(arguments: [1, 2, 7, 64, 1 << 16])
    func railLinesByStopWhateverTheChunks(size: Int) throws {
        let lines = try Self.lines(chunk: size)
        #expect(lines == ["30089": [.red], "30088": [.red], "30074": [.brown, RouteID("Pnk")], "30075": [.brown]])
    }

    @Test func theFeedDecidesPlatformsAndLines() throws {
        let decoded = try GTFSStopsDecoder.decode(Fixtures.bytes(GTFSStopsDecoderTests.file), feed: try Self.feed(chunk: 4096))
        #expect(decoded.linesKnown)
        let directory = StationDirectory(decoded)
        // Only stops a rail trip serves are platforms: the bus trip at 30374 makes it none.
        #expect(directory.station(for: "40380")?.platforms.map(\.stopID) == ["30074", "30075"])
        #expect(directory.station(for: "40380")?.routes == [.brown, RouteID("Pnk")])
        #expect(directory.station(for: "40380")?.lines.map(\.longName) == ["Brown Line", "Pink Line"])
        #expect(directory.station(for: "30088")?.routes == [.red])
        #expect(directory.station(for: "14003") == nil)
        #expect(directory.count == 2)
    }

    @Test func aMissingColumnFailsNamingFileLineAndColumn() {
        var lines = GTFSStopLines()
        lines.begin(.routes)
        #expect(failure { try lines.consume(bytes("\nroute_id,route_name\nRed,x\n")); try lines.end() }?.description
            == "malformed upstream data at routes.txt line 2 column route_type: no such column in the header")
    }

    @Test func badRowsAreNoticesAndSkipped() throws {
        var lines = GTFSStopLines()
        lines.begin(.routes)
        try lines.consume(bytes("route_id,route_type\nRed,subway\nBlue,1\nBlue,1\nG,1,extra\n,1\nBrn\nP,2\n"))
        try lines.end()
        #expect(lines.lines.map(\.id) == [.blue, .purple])
        #expect(lines.notices.count == 5)
        #expect(lines.notices.first == [
            .init(file: "routes.txt", line: 2, problem: "route_type 'subway' is not a number: row skipped"),
            .init(file: "routes.txt", line: 4, problem: "route_id 'Blue' repeats an earlier row: row skipped"),
            .init(file: "routes.txt", line: 5, problem: "3 fields, the header has 2: row skipped"),
            .init(file: "routes.txt", line: 6, problem: "empty route_id: row skipped"),
            .init(file: "routes.txt", line: 7, problem: "1 fields, the header has 2: row skipped"),
        ])
        #expect(!lines.linesKnown && lines.tablesMissingForLines == ["trips.txt", "stop_times.txt"])
    }

    @Test func aTableWithoutLineBreaksIsBounded() {
        var lines = GTFSStopLines()
        lines.begin(.routes)
        let endless = Array(repeating: UInt8(ascii: "x"), count: 1 << 21)
        #expect(failure { try lines.consume(endless) }?.description == "body is not valid CSV: record on line 1 is longer than 1048576 bytes")
    }

    @Test(arguments: [1, 3, 100, 4096])
    func theStreamReadsAsTheWholeBody(size: Int) throws {
        let body = Fixtures.bytes("L_stops_2021.csv")
        var stream = CSVRecordStream()
        var rows: [[String]] = []
        let collect = { (record: CSVRecordStream.Record) throws(DecodingFailure) in rows.append((0..<record.count).map { record[$0] }) }
        // A byte order mark split across chunks is still skipped.
        let withMark = [0xEF, 0xBB, 0xBF] + body
        var start = 0
        while start < withMark.count {
            try stream.consume(withMark[start..<min(withMark.count, start + size)], collect)
            start += size
        }
        try stream.finish(collect)
        #expect(rows == (try CSVReader.rows(body)))
        #expect(rows.count == 301)
    }
}

/// The language of a feed's names: `feed_lang`, else the first `agency_lang`; `mul` (several
/// languages) leaves it to the agencies. MADE FOR THE TEST.
@Suite struct GTFSFeedLanguageTests {
    static func language(feedInfo: String?, agencyLang: String) throws -> String? {
        var lines = GTFSStopLines()
        var tables: [(GTFSStopLines.Table, String)] = [
            (.agency, "agency_name,agency_url,agency_timezone,agency_lang\nDPP,https://example.org,Europe/Prague,\(agencyLang)\n"),
            (.routes, "route_id,route_type\nC,1\n"), (.trips, "route_id,service_id,trip_id\nC,w,t\n"), (.stopTimes, "trip_id,stop_id\nt,p\n"),
        ]
        if let feedInfo { tables.insert((.feedInfo, feedInfo), at: 0) }
        for (table, text) in tables {
            lines.begin(table)
            try lines.consume(Array(text.utf8))
            try lines.end()
        }
        return lines.language
    }

    @Test func feedLangThenAgencyLang() throws {
        #expect(try Self.language(feedInfo: "feed_publisher_name,feed_publisher_url,feed_lang\nDPP,https://example.org,cs\n", agencyLang: "en") == "cs")
        #expect(try Self.language(feedInfo: "feed_publisher_name,feed_publisher_url,feed_lang\nDPP,https://example.org,mul\n", agencyLang: "en") == "en")
        #expect(try Self.language(feedInfo: "feed_publisher_name,feed_publisher_url\nDPP,https://example.org\n", agencyLang: "") == nil,
                "a feed_info.txt without feed_lang is no failure")
        #expect(try Self.language(feedInfo: nil, agencyLang: "cs") == "cs")
    }
}

/// A feed with two agencies: each route's agency_id names its stations' agency, and an
/// agency_id selector reaches that agency's stations only. MADE FOR THE TEST.
@Suite struct GTFSAgenciesTests {
    static func directory(agencyName: String? = nil) throws -> StationDirectory {
        var lines = GTFSStopLines()
        let tables: [(GTFSStopLines.Table, String)] = [
            (.agency, "agency_id,agency_name,agency_url,agency_timezone,agency_lang\nST,Sound Transit,https://example.org,America/Los_Angeles,en\nKCM,King County Metro,https://example.org,America/Los_Angeles,\n"),
            (.routes, "route_id,agency_id,route_short_name,route_long_name,route_type,route_color\n1-Line,ST,1,1 Line,0,28813F\nSLU,KCM,,South Lake Union Streetcar,0,\nF1,ST,,Ferry,4,\n"),
            (.trips, "route_id,service_id,trip_id\n1-Line,w,t1\nSLU,w,t2\nF1,w,t3\n"),
            (.stopTimes, "trip_id,stop_id\nt1,p1\nt2,p2\nt3,p3\n"),
        ]
        for (table, text) in tables {
            lines.begin(table)
            try lines.consume(Array(text.utf8))
            try lines.end()
        }
        // agency_lang: the language the stations' names are sorted in; empty is none.
        #expect(lines.agencies == [Agency(id: "ST", name: "Sound Transit", timeZone: "America/Los_Angeles", language: "en"),
                                   Agency(id: "KCM", name: "King County Metro", timeZone: "America/Los_Angeles")])
        let stops = """
            stop_id,stop_name,location_type,parent_station,wheelchair_boarding
            s1,Westlake,1,,2
            p1,Westlake,0,s1,
            s2,Westlake Streetcar,1,,2
            p2,Westlake Streetcar,,s2,
            s3,Colman Dock,1,,2
            p3,Colman Dock,0,s3,
            """
        return StationDirectory(try GTFSStopsDecoder.decode(Array(stops.utf8), feed: lines), agencyName: agencyName)
    }

    @Test func eachStationNamesItsLinesAgency() throws {
        let directory = try Self.directory()
        #expect(directory.stations.map(\.id) == ["s1", "s2"])
        #expect(directory.stations.map(\.agencyID) == ["ST", "KCM"])
        #expect(directory.stations.map { Snapshot.build(stations: directory, alerts: [], now: Instant(secondsSince1970: 0)).stopSheet(for: $0).accessibilityButton.alert.message }
            == ["Sound Transit currently reports no step-free access at Westlake.", "King County Metro currently reports no step-free access at Westlake Streetcar."])
        #expect(directory.stations[0].lines == [Line(id: RouteID("1-Line"), shortName: "1", longName: "1 Line", color: "28813F", routeType: 0, agencyID: "ST")])
        let overridden = try Self.directory(agencyName: "Transit")
        #expect(overridden.stations.allSatisfy { $0.agencyName == "Transit" })
    }

    @Test func anAgencySelectorReachesThatAgencysStationsOnly() throws {
        let directory = try Self.directory()
        let alerts = [Alert(id: "kcm", kindSource: .fromTime, headline: "KCM", description: "", scopes: [.agency("KCM")]),
                      Alert(id: "tram", kindSource: .fromTime, headline: "Trams", description: "", scopes: [.routeType(0)]),
                      Alert(id: "metro", kindSource: .fromTime, headline: "Metro", description: "", scopes: [.routeType(1)])]
        let snapshot = Snapshot.build(stations: directory, alerts: alerts, now: Instant(secondsSince1970: 0))
        #expect(directory.stations.map { snapshot.alerts(applyingTo: $0).map(\.alert.id) } == [["tram"], ["kcm", "tram"]])
    }

    @Test func nodesAndBoardingAreasNameTheirStationAndInheritThroughTheirParents() throws {
        let stops = """
            stop_id,stop_name,location_type,parent_station,wheelchair_boarding
            s1,Central,1,,2
            p1,Central,0,s1,1
            p2,Central,,s1,
            b1,Central bay 1,4,p1,
            n1,Central mezzanine,3,s1,
            e1,Central entrance,2,s1,
            """
        let decoded = try GTFSStopsDecoder.decode(Array(stops.utf8))
        // stops.txt alone, not CTA's numbering: every location_type 0/empty child is a platform.
        #expect(decoded.platforms.map(\.stopID) == ["p1", "p2"])
        #expect(decoded.platforms.map(\.stepFree) == [true, false])
        #expect(decoded.entrances.map(\.stepFree) == [false])
        #expect(decoded.stopsWithin == ["b1": "s1", "n1": "s1"])
        #expect(decoded.agencies.isEmpty)
        let directory = StationDirectory(decoded)
        #expect(directory.station(for: "b1")?.id == "s1")
        #expect(directory.station(for: "n1")?.agencyName == StationDirectory.unnamedAgency)
        let alert = Alert(id: "bay", kindSource: .fromTime, headline: "Bay closed", description: "", scopes: [.station("b1")])
        #expect(Snapshot.build(stations: directory, alerts: [alert], now: Instant(secondsSince1970: 0)).alerts(applyingTo: directory.stations[0]).map(\.alert.id) == ["bay"])
    }

    @Test func theCTAFeedsLongNameIsCTA() {
        #expect(Agency(id: "CTA", name: "Chicago Transit Authority", timeZone: "America/Chicago").spokenName == "CTA")
        #expect(Agency(id: nil, name: "MBTA", timeZone: nil).spokenName == "MBTA")
    }
}

/// Where each platform's trains go, from a GTFS feed (issue 50): CTA's GTFS names both of
/// Western's Brown Line platforms `Western-Brown`, but the headsigns of the trips stopping at
/// each say which is which, and an alert's "Loop-bound" finds its platform by them. Rows in
/// CTA's GTFS shape (its stop ids, `Brn`, its headsigns), MADE FOR THE TEST (HANDMADE).
@Suite struct GTFSHeadsignsTests {
    static func feed() throws -> GTFSStopLines {
        var lines = GTFSStopLines()
        let tables: [(GTFSStopLines.Table, String)] = [
            (.routes, "route_id,route_type\nBrn,1\n"),
            (.trips, "route_id,service_id,trip_id,trip_headsign\nBrn,w,in1,Loop\nBrn,w,out1,Kimball\nBrn,w,in2,Loop\nBrn,w,odd,\n"),
            (.stopTimes, "trip_id,stop_id\nin1,30284\nout1,30283\nin2,30284\nodd,30283\n"),
        ]
        for (table, text) in tables {
            lines.begin(table)
            try lines.consume(Array(text.utf8))
            try lines.end()
        }
        return lines
    }

    @Test func eachStopKeepsItsTripsHeadsigns() throws {
        #expect(try Self.feed().headsignsByStopID == ["30284": ["Loop"], "30283": ["Kimball"]])
    }

    @Test func anAlertsDirectionFindsItsPlatformByHeadsign() throws {
        let stops = Array("""
            stop_id,stop_name,location_type,parent_station,wheelchair_boarding
            41480,Western,1,,1
            30283,Western-Brown,0,41480,1
            30284,Western-Brown,0,41480,1
            """.utf8)
        let decoded = try GTFSStopsDecoder.decode(stops, feed: try Self.feed())
        let station = Station(id: "41480", name: "Western", platforms: decoded.platforms)
        #expect(station.platforms.map(\.headsigns) == [["Kimball"], ["Loop"]])
        let alert = Alert(id: "111489", kindSource: .fromTime, headline: "Western Loop-bound Platform Elevator Out of Service",
                          description: "The Loop-bound platform elevator at the Western Brown Line station is temporarily out of service.",
                          scopes: [.station("41480")], details: .init(effect: "ACCESSIBILITY_ISSUE"))
        let now = StepFreeNow(station: station, topology: nil, outages: [try #require(AlertOutage(alert))])
        #expect(now.platforms.map(\.entry) == [true, nil] && now.stepFree == .partial)
        #expect(now.outages.first?.placedBy == .direction && now.outages.first?.platforms == ["30284"])
    }
}
