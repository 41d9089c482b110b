import StopSheetCore
import Testing

/// Rail stops without a parent station, as many agencies publish them: one station per place
/// (same name, within 300 m, transitively), named by its smallest stop id. MADE FOR THE TEST
/// (the real feeds are in the integration tests).
@Suite struct ParentlessStationsTests {
    /// A feed whose route `T` (a train) serves `trainStops` and bus `B` serves `busStops`.
    static func feed(trainStops: [String], busStops: [String] = []) throws -> GTFSStopLines {
        var lines = GTFSStopLines()
        let tables: [(GTFSStopLines.Table, String)] = [
            (.routes, "route_id,route_type\nT,2\nB,3\n"),
            (.trips, "route_id,trip_id\nT,t\nB,b\n"),
            (.stopTimes, "trip_id,stop_id\n" + trainStops.map { "t,\($0)\n" }.joined() + busStops.map { "b,\($0)\n" }.joined()),
        ]
        for (table, text) in tables {
            lines.begin(table)
            try lines.consume(bytes(text))
            try lines.end()
        }
        return lines
    }

    static func directory(_ stops: String, trainStops: [String], busStops: [String] = []) throws -> StationDirectory {
        StationDirectory(try GTFSStopsDecoder.decode(bytes("stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,wheelchair_boarding\n" + stops),
                                                     feed: feed(trainStops: trainStops, busStops: busStops)))
    }

    @Test func twoPlatformsOfOneNameAreOneStation() throws {
        // 0.001° of latitude is 111 m: b is 111 m from a, c 222 m from b (333 m from a: joined
        // through b), d is 1.1 km away.
        let directory = try Self.directory("""
            p9,Ashford ,51.0000,0.0,,,1
            p10,Ashford,51.0010,0.0,0,,1
            p2,Ashford,51.0030,0.0,,,2
            x1,Ashford,51.0130,0.0,,,1
            bus,Ashford,51.0000,0.0,,,
            o1,Other,51.0000,0.0,,,

            """, trainStops: ["p9", "p10", "p2", "x1", "o1"], busStops: ["bus"])
        #expect(directory.stations.map(\.id) == ["o1", "p10", "x1"])
        let ashford = try #require(directory.station(for: "p2"))
        #expect(ashford.id == "p10" && ashford.name == "Ashford")
        #expect(ashford.platforms.map(\.stopID).sorted() == ["p10", "p2", "p9"])
        #expect(directory.station(for: "p9")?.id == "p10")
        #expect(directory.station(for: "bus") == nil)
        // Two step-free platforms and one not: step-free, partly.
        #expect(ashford.stepFree == .available && ashford.partial)
        #expect(directory.station(for: "x1")?.stepFree == .available)
        #expect(directory.station(for: "o1")?.stepFree == .unknown)
    }

    @Test(arguments: [["a", "b", "c"], ["c", "b", "a"], ["b", "a", "c"]])
    func stopsAreJoinedThroughAThirdWhateverTheRowsOrder(_ order: [String]) throws {
        // a and b are 444 m apart (0.004° of latitude), c 222 m from each: a, b and c are one
        // place through c, whichever row comes first.
        let rows = ["a": "a,Dock,51.0000,0.0,,,", "b": "b,Dock,51.0040,0.0,,,", "c": "c,Dock,51.0020,0.0,,,"]
        let directory = try Self.directory(order.map { rows[$0]! + "\n" }.joined(), trainStops: ["a", "b", "c"])
        #expect(directory.stations.map(\.id) == ["a"])
        #expect(directory.station(for: "b")?.platforms.map(\.stopID).sorted() == ["a", "b", "c"])
    }

    @Test func namesAreComparedWithRunsOfSpaceCollapsed() throws {
        let directory = try Self.directory("a,Dock  Street,51.0000,0.0,,,\nb,Dock Street,51.0010,0.0,,,\n", trainStops: ["a", "b"])
        #expect(directory.stations.map(\.id) == ["a"])
        #expect(directory.station(for: "b")?.name == "Dock Street")
    }

    @Test func withoutCoordinatesAStopIsAStationOfItsOwn() throws {
        let directory = try Self.directory("a,Same,,,,,\nb,Same,,,,,\n", trainStops: ["a", "b"])
        #expect(directory.stations.map(\.id) == ["a", "b"])
    }

    @Test func stopsWithParentsKeepTheirStationInTheSameFeed() throws {
        let directory = try Self.directory("""
            S,Central,0,0,1,,1
            S1,Central 1,0,0,0,S,
            tram1,Central,0,0.0001,0,,2
            tram2,Central,0,0.0002,,,2
            ba,Board,0,0,4,tram1,

            """, trainStops: ["S1", "tram1", "tram2"])
        #expect(directory.stations.map(\.id) == ["S", "tram1"])
        #expect(directory.station(for: "S1")?.id == "S")
        #expect(directory.station(for: "S")?.stepFree == .available)
        #expect(directory.station(for: "tram2")?.id == "tram1")
        #expect(directory.station(for: "tram1")?.stepFree == StepFreeStatus.none)
        // A boarding area of a parentless platform is within its station.
        #expect(directory.station(for: "ba")?.id == "tram1")
    }

    @Test func idsCompareAsBytes() throws {
        // "Z" (0x5A) sorts before "a" (0x61) and "é" (0xC3 0xA9) after both.
        let directory = try Self.directory("a,N,0,0,,,\nZ,N,0,0,,,\né,N,0,0,,,\n", trainStops: ["a", "Z", "é"])
        #expect(directory.stations.map(\.id) == ["Z"])
    }

    @Test func stopsTxtAloneMakesNoParentlessStations() throws {
        let decoded = try GTFSStopsDecoder.decode(bytes("stop_id,stop_name,parent_station\na,A,\n"))
        #expect(decoded.platforms.isEmpty)
    }
}
