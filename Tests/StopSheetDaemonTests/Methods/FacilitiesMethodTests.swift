import StopSheetCore
import StopSheetProtocol
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// `facilities` with a `stopId`: that stop's station alone, named in `stationId`; a stop the
/// stations do not know is the unknown-stop error, as for `stopSheet`, never the whole listing.
@Suite struct FacilitiesMethodTests {
    @Test func aStopNamesItsStationAndAnUnknownStopIsAnError() throws {
        let store = Store(alertsSource: nil, stationsSource: "test:stations", facilitiesSource: "test:facilities",
                          clock: .fixed(UpcomingOutageTests.t0), zones: .cta)
        store.install(stations: StationDirectory(platforms: try GTFSStopsDecoder.decode(Fixtures.bytes("facilities/gtfs/stops.txt")).platforms,
                                                 agencies: [Agency(id: "MTA", name: "MTA", timeZone: "America/New_York")]), at: UpcomingOutageTests.t0)
        let body = Fixtures.bytes("facilities/nyct_ene.HANDMADE.json")
        let (inventory, _) = try FacilityInventoryDecoder.decode(Fixtures.bytes("facilities/nyct_ene_equipments.HANDMADE.json"))
        store.install(facilities: FacilitiesLoad(feed: try FacilitiesBody.decode(body, local: store.zone), inventory: inventory, body: body,
                                                 local: store.zone), at: UpcomingOutageTests.t0)
        let service = StopSheetService(store: store, refreshers: [], connections: { 0 }, clock: store.clock)
        let all = try JSONParser.parse(try service.facilities(nil).bytes)
        let allUnits = try #require(all["units"]?.arrayValue)
        let stationID = try #require(allUnits.first?["stationId"]?.stringValue)
        #expect(all["stationId"] == nil && !stationID.isEmpty && allUnits.contains { $0["stationId"]?.stringValue != stationID },
                "units at more than one station: \(all.encodedString)")
        let one = try JSONParser.parse(try service.facilities(stationID).bytes)
        let units = try #require(one["units"]?.arrayValue)
        #expect(one["stationId"] == .string(stationID))
        #expect(units == allUnits.filter { $0["stationId"]?.stringValue == stationID }, "\(one.encodedString)")
        #expect(throws: RPCError.unknownStop("no-such-stop")) { try service.facilities("no-such-stop") }
    }
}
