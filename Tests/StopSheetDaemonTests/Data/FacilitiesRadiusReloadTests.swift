import StopSheetCore
import StopSheetProtocol
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// A reload that changes `--facilities-radius` joins the units again at once (Store.reconfigure
/// rebuilds the snapshot; no fetch): a lift 400 m from a station is at none within 300 m, at it
/// within 500 m, and at none again within 300. The stations are a HANDMADE stops.txt with
/// coordinates; the unit is made as a decoder of a feed with positions (FaSta, IDFM) makes it.
@Suite struct FacilitiesRadiusReloadTests {
    @Test func aNewRadiusJoinsTheUnitsAgain() throws {
        let clock = ManualClock(UpcomingOutageTests.t0)
        let store = Store(alertsSource: nil, stationsSource: "test:stations", facilitiesSource: "test:facilities", clock: clock.clock, zones: .cta)
        let stops = "stop_id,stop_name,location_type,parent_station,stop_lat,stop_lon,wheelchair_boarding\nS1,Hauptbahnhof,1,,52.525000,13.369000,1\nS1a,Hauptbahnhof,0,S1,52.525000,13.369000,1\n"
        store.install(stations: StationDirectory(try GTFSStopsDecoder.decode(Array(stops.utf8))), at: clock.now)
        // 400 m north (1 m of latitude is 1/111,195 degree).
        let unit = FacilityUnit(unitID: "10460336", facility: .elevator, status: .notAvailable,
                                location: .init(stationRef: "1071", position: Coordinate(latitude: 52.528597, longitude: 13.369)))
        store.install(facilities: FacilitiesLoad(feed: FacilitiesDecoder.Feed(format: .siriFM, units: [unit])), at: clock.now)
        let service = StopSheetService(store: store, refreshers: [], connections: { 0 }, clock: store.clock)
        func placed() throws -> (station: String?, distance: Int?, stepFree: String?) {
            let listed = try JSONParser.parse(try service.facilities(nil).bytes)["units"]?.arrayValue?.first
            let now = try JSONParser.parse(try service.stopSheet(StopSheetQuery(stopID: "S1")).bytes)["accessibilityButton"]?["now"]
            return (listed?["stationId"]?.stringValue, listed?["distance"]?.intValue, now?["stepFree"]?.stringValue)
        }
        #expect(try placed() == ("", nil, "available"))
        store.reconfigure(sources: [:], staleAfterSeconds: [:], radiusMeters: 500, zones: store.current.zones)
        #expect(try placed() == ("S1", 400, "unknown"))
        store.reconfigure(sources: [:], staleAfterSeconds: [:], radiusMeters: 300, zones: store.current.zones)
        #expect(try placed() == ("", nil, "available"))
    }
}
