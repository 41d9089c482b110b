import Testing
@testable import StopSheetCore

/// The two joins of issue 52 for a feed that names none of the station data's ids: the
/// deployer's station table (`station_ref,stop_id`) and the position (`--facilities-radius`),
/// their order among the other rules, and why a unit is at no station. Stations are a hand-made
/// `stops.txt` read through the decoder (coordinates kept); the distances expected are worked
/// out from the degrees by hand (1 m of latitude is 1/111,195 degree), to half a metre.
@Suite struct FacilityJoinTests {
    static let at = Instant(secondsSince1970: 1_000)

    /// S1: a station (52.525 N) with two platforms 100 m north and south of it and an entrance
    /// about 203 m east. S4: 300 m north of S1's north platform. S2 and S3: 40 m apart, in Paris.
    static let stops = """
        stop_id,stop_name,location_type,parent_station,stop_lat,stop_lon
        S1,Berlin Hbf,1,,52.525000,13.369000
        S1a,Berlin Hbf,0,S1,52.525900,13.369000
        S1b,Berlin Hbf,0,S1,52.524100,13.369000
        S1e,Berlin Hbf Eingang Ost,2,S1,52.525000,13.372000
        S4,Nordbahnhof,1,,52.528598,13.369000
        S4a,Nordbahnhof,0,S4,52.528598,13.369000
        S2,Gare A,1,,48.800000,2.300000
        S2a,Gare A,0,S2,48.800000,2.300000
        S3,Gare B,1,,48.800360,2.300000
        S3a,Gare B,0,S3,48.800360,2.300000
        S5,No Coordinates,1,,,
        S5a,No Coordinates,0,S5,,

        """

    static func directory() throws -> StationDirectory {
        StationDirectory(try GTFSStopsDecoder.decode(Array(stops.utf8)))
    }

    static func unit(_ id: String, ref: String? = nil, code: String? = nil, stops: [String] = [], at position: (Double, Double)? = nil,
                     status: FacilityUnit.Status = .notAvailable) -> FacilityUnit {
        FacilityUnit(unitID: id, facility: .elevator, status: status,
                     location: .init(stopIDs: stops, stationCode: code, stationRef: ref,
                                     position: position.flatMap { Coordinate(latitude: $0.0, longitude: $0.1) }))
    }

    static let table = FacilityStationTable(rows: [
        .init(stationRef: "8011160", stopID: "S1a", line: 1), .init(stationRef: "8011160", stopID: "S1", line: 2),
        .init(stationRef: "8098160", stopID: "S2a", line: 3), .init(stationRef: "8098160", stopID: "S3", line: 4),
        .init(stationRef: "gone", stopID: "X9", line: 5),
    ])

    /// Where each unit is: station id → (rule, distance) for each station, by unit id.
    static func places(_ joined: FacilityJoin.Joined) -> [String: [String: FacilityJoin.Rule]] {
        var places: [String: [String: FacilityJoin.Rule]] = [:]
        for (station, units) in joined.byStation {
            for unit in units { places[unit.unitID, default: [:]][station] = unit.joinedBy }
        }
        return places
    }

    static func distance(_ joined: FacilityJoin.Joined, _ unitID: String, at station: String) -> Double? {
        joined.byStation[station]?.first { $0.unitID == unitID }?.distanceMeters
    }

    @Test func theStationsKeepTheirStopsCoordinates() throws {
        let directory = try Self.directory()
        // Every stop with a coordinate, S5's two without none.
        #expect(directory.positions.count == 10)
        let near = directory.positions.stations(within: 150, of: try #require(Coordinate(latitude: 52.525, longitude: 13.369)))
        #expect(near.map { directory.stations[$0.station].id } == ["S1"] && near.first?.meters == 0)
    }

    /// CTA's 'L' stops CSV keeps its `Location` too: Pulaski (Orange Line)'s two platforms.
    @Test func theLStopsCSVKeepsItsPlatformsLocations() throws {
        let directory = StationDirectory(try StationsDecoder.decodeStations(Fixtures.bytes("L_stops_2021.csv")))
        let near = directory.positions.stations(within: 10, of: try #require(Coordinate(latitude: 41.799756, longitude: -87.724493)))
        #expect(near.map { directory.stations[$0.station].id } == ["40960"])
        #expect(directory.positions.count == directory.stations.flatMap(\.platforms).count)
        #expect(LStopsCSVDecoder.coordinate("(41.799756, -87.724493)") == Coordinate(latitude: 41.799756, longitude: -87.724493))
        #expect(LStopsCSVDecoder.coordinate("") == nil && LStopsCSVDecoder.coordinate("(41.8)") == nil && LStopsCSVDecoder.coordinate("(x, y)") == nil)
    }

    @Test func theTableMapsAReferenceToEachOfItsStations() throws {
        let directory = try Self.directory()
        let units = [Self.unit("two-stops-one-station", ref: "8011160"), Self.unit("two-stations", ref: "8098160"),
                     Self.unit("unlisted", ref: "999"), Self.unit("no-station", ref: "gone"),
                     // WMATA's code is a reference too, once no station's id holds it.
                     Self.unit("by-code", code: "8011160")]
        let joined = FacilityJoin.join(units, table: Self.table, stations: directory, at: Self.at)
        let places = Self.places(joined)
        #expect(places["two-stops-one-station"] == ["S1": .table])
        #expect(joined.byStation["S1"]?.filter { $0.unitID == "two-stops-one-station" }.count == 1)
        #expect(places["two-stations"] == ["S2": .table, "S3": .table])
        #expect(places["by-code"] == ["S1": .table])
        #expect(joined.nowhere.map(\.unitID) == ["unlisted", "no-station"])
        #expect(joined.nowhere[0].notJoined == "At no station: the station table has no row for its station reference '999'; the feed gives no position for it.")
        #expect(joined.nowhere[1].notJoined == "At no station: the station table's stops for its station reference 'gone' are no station's; the feed gives no position for it.")
        #expect(joined.joinedBy == [.table: 3])
        // Without a table, the reference places nothing, and the reason says so.
        let none = FacilityJoin.join([Self.unit("u", ref: "8011160")], stations: directory, at: Self.at)
        #expect(none.nowhere.first?.notJoined == "At no station: no station table is loaded to read its station reference '8011160'; the feed gives no position for it.")
        // The row naming no station is a notice, counted.
        let notices = Self.table.notices(against: directory)
        #expect(notices.count == 1 && notices.first.first?.line == 5 && notices.first.first?.file == "stations.csv")
    }

    @Test func thePositionJoinsTheNearestStationWithinTheRadius() throws {
        let directory = try Self.directory()
        let units = [
            // 50 m north of S1's north platform, 250 m south of S4: S1 alone, by its platform.
            Self.unit("near-S1", at: (52.526350, 13.369)),
            // 150 m from each: both, never silently one.
            Self.unit("between-S1-S4", at: (52.527249, 13.369)),
            // 22 m south of S2, 62 m from S3, 40 m apart: both.
            Self.unit("paris", at: (48.799800, 2.3)),
            // 203 m east of S1's station, 0 from its entrance: S1, by the entrance.
            Self.unit("at-the-entrance", at: (52.525, 13.372)),
            // A wrong coordinate, far from any station; and none at all.
            Self.unit("far", at: (52.0, 13.0)), Self.unit("no-position"),
        ]
        let joined = FacilityJoin.join(units, stations: directory, at: Self.at)
        let places = Self.places(joined)
        #expect(places["near-S1"] == ["S1": .position])
        #expect(abs(try #require(Self.distance(joined, "near-S1", at: "S1")) - 50.0) < 0.5)
        #expect(places["between-S1-S4"] == ["S1": .position, "S4": .position])
        #expect(abs(try #require(Self.distance(joined, "between-S1-S4", at: "S4")) - 150.0) < 0.5)
        #expect(places["paris"] == ["S2": .position, "S3": .position])
        #expect(abs(try #require(Self.distance(joined, "paris", at: "S2")) - 22.2) < 0.5)
        #expect(abs(try #require(Self.distance(joined, "paris", at: "S3")) - 62.3) < 0.5)
        #expect(places["at-the-entrance"] == ["S1": .position] && Self.distance(joined, "at-the-entrance", at: "S1") == 0)
        #expect(joined.nowhere.map(\.unitID) == ["far", "no-position"])
        #expect(joined.nowhere[0].notJoined == "At no station: no station's stop is within 300 m of its position.")
        #expect(joined.nowhere[1].notJoined == "At no station: the feed gives no position for it.")
        #expect(joined.joinedBy == [.position: 4])
    }

    /// Beyond the tie: a second station more than 50 m further than the nearest is not joined.
    @Test func aSecondStationFurtherThanTheTieIsLeftOut() throws {
        let directory = try Self.directory()
        // 99 m north of S1's north platform, 201 m south of S4: 102 m apart, S1 alone; at 126 m and 174 m, 48 apart: both.
        let joined = FacilityJoin.join([Self.unit("a", at: (52.526790, 13.369)), Self.unit("b", at: (52.527033, 13.369))],
                                       stations: directory, at: Self.at)
        #expect(Self.places(joined) == ["a": ["S1": .position], "b": ["S1": .position, "S4": .position]])
    }

    @Test func theRadiusIsTheDeployers() throws {
        let directory = try Self.directory()
        // 541 m east of S1's entrance, the nearest of its stops.
        let far = [Self.unit("u", at: (52.525, 13.380))]
        #expect(FacilityJoin.join(far, stations: directory, at: Self.at).nowhere.first?.notJoined
                == "At no station: no station's stop is within 300 m of its position.")
        let wide = FacilityJoin.join(far, radiusMeters: 600, stations: directory, at: Self.at)
        #expect(Self.places(wide) == ["u": ["S1": .position]])
        #expect(abs(try #require(Self.distance(wide, "u", at: "S1")) - 541.4) < 1)
        #expect(FacilityJoin.join(far, radiusMeters: 500, stations: directory, at: Self.at).nowhere.first?.notJoined
                == "At no station: no station's stop is within 500 m of its position.")
    }

    /// The order: inventory, the feed's stops, the station code, the table, the position, a pathway's name.
    @Test func theRulesAreTriedInTheIssuesOrder() throws {
        let directory = try Self.directory()
        let inParis = (48.8, 2.3)
        let units = [
            Self.unit("inv", ref: "8011160", stops: ["S4a"], at: inParis),
            Self.unit("feed", ref: "8011160", stops: ["S4a"], at: inParis),
            Self.unit("table", ref: "8011160", at: inParis),
            Self.unit("position-after-an-unlisted-ref", ref: "999", at: inParis),
            Self.unit("position-after-stops-of-no-station", stops: ["nope"], at: inParis),
        ]
        let inventory = FacilityInventory(rows: [.init(unitID: "inv", stopIDs: ["S3a"])])
        let joined = FacilityJoin.join(units, inventory: inventory, table: Self.table, stations: directory, at: Self.at)
        let places = Self.places(joined)
        #expect(places["inv"] == ["S3": .inventory])
        #expect(places["feed"] == ["S4": .feed])
        #expect(places["table"] == ["S1": .table])
        #expect(places["position-after-an-unlisted-ref"] == ["S2": .position, "S3": .position])
        #expect(places["position-after-stops-of-no-station"] == ["S2": .position, "S3": .position])
        #expect(joined.joinedBy == [.inventory: 1, .feed: 1, .table: 1, .position: 2] && joined.nowhere.isEmpty)
        // Only the position gives a distance.
        #expect(joined.byStation.values.joined().allSatisfy { ($0.distanceMeters != nil) == ($0.joinedBy == .position) })
    }

    /// Item 3: at a station without a map, a unit joined by position or table counts as rule 1
    /// says: out or unknown (stale data too), never "available"; an escalator changes nothing.
    @Test func aJoinedUnitAtStationLevelIsNeverAvailableByDefault() throws {
        let directory = try Self.directory()
        let s1 = try #require(directory.station(for: "S1"))
        #expect(StepFreeNow(station: s1, topology: nil, outages: [], facilities: []).stepFree == .unknown)  // no wheelchair_boarding
        let stepFree = Station(id: "S1", name: "Berlin Hbf", platforms: s1.platforms.map { var p = $0; p.stepFree = true; return p })
        for status in [FacilityUnit.Status.notAvailable, .unknown] {
            let joined = FacilityJoin.join([Self.unit("EL1", at: (52.526350, 13.369), status: status)], stations: directory, at: Self.at)
            let now = StepFreeNow(station: stepFree, topology: nil, outages: [], facilities: joined.byStation["S1"] ?? [])
            #expect(now.stepFree == .unknown && !now.complete && now.outages.map(\.facilityID) == ["EL1"])
        }
        let stale = FacilityJoin.join([Self.unit("EL1", ref: "8011160", status: .available)], table: Self.table, stations: directory,
                                      at: Self.at, stale: true)
        #expect(StepFreeNow(station: stepFree, topology: nil, outages: [], facilities: stale.byStation["S1"] ?? []).stepFree == .unknown)
        var escalator = Self.unit("ES1", ref: "8011160")
        escalator.facility = .escalator
        let moving = FacilityJoin.join([escalator], table: Self.table, stations: directory, at: Self.at)
        let withEscalator = StepFreeNow(station: stepFree, topology: nil, outages: [], facilities: moving.byStation["S1"] ?? [])
        #expect(withEscalator.stepFree == .available && withEscalator.complete && withEscalator.outages.map(\.facilityID) == ["ES1"])
    }
}
