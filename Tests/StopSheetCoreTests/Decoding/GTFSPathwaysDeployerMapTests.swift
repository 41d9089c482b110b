import StopSheetCore
import Testing

/// A deployer's map (`within:` the station data's platforms) on HANDMADE tables in GTFS's own
/// form: its rows hang under the station data's stations, and a row under anything else (a
/// station of the map's own, a platform taken for a station) is a notice and no location.
@Suite struct GTFSPathwaysDeployerMapTests {
    static let stationData = """
        stop_id,stop_name,parent_station,location_type
        40001,A,,1
        30001,A 1,40001,0

        """

    @Test func rowsUnderAStationTheDataLacksOrUnderAPlatformAreNoticesAndNoLocations() throws {
        let platforms = try StationsDecoder.decodeStations(bytes(Self.stationData)).platforms
        let map = """
            stop_id,stop_name,parent_station,location_type
            40001-entrance,A entrance,40001,2
            49998,B,,1
            49998-entrance,B entrance,49998,2
            30001-node,A node,30001,3

            """
        let decoded = try GTFSPathwaysDecoder.decode(stops: bytes(map), pathways: nil, within: platforms)
        #expect(decoded.stations.keys.sorted() == ["40001"])
        #expect(decoded.stations["40001"]?.locations.map(\.id).sorted() == ["30001", "40001-entrance"])
        #expect(decoded.notices.first.map { "\($0.file):\($0.line): \($0.problem)" } == [
            "stops.txt:3: station '49998' is not in the station data",
            "stops.txt:4: '49998-entrance': station '49998' is not in the station data",
            "stops.txt:5: '30001-node': station '30001' is not in the station data",
        ])
    }
}
