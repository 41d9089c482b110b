import StopSheetCore
import Testing
@testable import StopSheetDaemon

/// Lift status in the store: times without an offset follow the agency's zone even when the
/// status came before the stations named it.
@Suite struct FacilitiesStoreTests {
    static let t0 = Instant(secondsSince1970: 1_789_660_800)  // 2026-09-17T16:00:00Z

    /// A station whose unit goes from out to unknown is encoded again, though it had an outage in
    /// both snapshots (its `now` is kept only while its outages and units are the same).
    @Test func aChangedUnitIsEncodedAgainAndAnUnchangedOneKept() throws {
        let store = Store(alertsSource: nil, stationsSource: "test:stations", facilitiesSource: "test:facilities", clock: .fixed(Self.t0), zones: .cta)
        let directory = try Self.directory()
        store.install(stations: directory, at: Self.t0)
        func load(_ status: String) throws {
            let body = Array(#"<Siri xmlns="http://www.siri.org.uk/siri"><ServiceDelivery><FacilityMonitoringDelivery><FacilityCondition><FacilityRef>EL1</FacilityRef><FacilityStatus><Status>\#(status)</Status></FacilityStatus></FacilityCondition></FacilityMonitoringDelivery></ServiceDelivery></Siri>"#.utf8)
            store.install(facilities: FacilitiesLoad(feed: try FacilitiesBody.decode(body, local: store.zone), body: body, local: store.zone), at: Self.t0)
        }
        func sheet() -> String { String(decoding: store.current.encoded.stopSheet(stopID: "STN_A03")!.sheet, as: UTF8.self) }
        try load("notAvailable")
        #expect(sheet().contains(#""stepFree":"none""#), "\(sheet())")
        try load("unknown")
        #expect(sheet().contains(#""stepFree":"unknown""#) && sheet().contains(#""status":"unknown""#), "\(sheet())")
        let unknown = sheet()
        try load("unknown")
        #expect(sheet() == unknown)
    }

    /// TfL's lift feed gives no times: a lift is out since the load that first listed it, through
    /// later loads and a stations load that names the zone, and afresh once it has been back.
    @Test func aTfLLiftIsOutSinceTheLoadThatFirstListedIt() throws {
        let store = Store(alertsSource: nil, stationsSource: "test:stations", facilitiesSource: "test:facilities", clock: .fixed(Self.t0), zones: .cta)
        func load(_ lifts: String, at moment: Instant) throws {
            let body = Array(#"[{"stationUniqueId":"STN_A03","disruptedLiftUniqueIds":[\#(lifts)],"message":"out"}]"#.utf8)
            store.install(facilities: FacilitiesLoad(feed: try FacilitiesBody.decode(body, local: store.zone), body: body, local: store.zone), at: moment)
        }
        func since() -> [String: Instant?] {
            Dictionary(uniqueKeysWithValues: (store.snapshot.facilities?.units ?? []).map { ($0.unitID, $0.since) })
        }
        try load(#""EL1""#, at: Self.t0)
        try load(#""EL1","EL2""#, at: Self.t0.adding(seconds: 60))
        #expect(since() == ["EL1": Self.t0, "EL2": Self.t0.adding(seconds: 60)])
        store.install(stations: try Self.directory(), at: Self.t0.adding(seconds: 90))
        #expect(store.zone.identifier == "America/New_York" && since() == ["EL1": Self.t0, "EL2": Self.t0.adding(seconds: 60)])
        try load(#""EL2""#, at: Self.t0.adding(seconds: 120))
        try load(#""EL1","EL2""#, at: Self.t0.adding(seconds: 180))
        #expect(since() == ["EL1": Self.t0.adding(seconds: 180), "EL2": Self.t0.adding(seconds: 60)])
    }

    static func directory() throws -> StationDirectory {
        let stops = Array("""
            stop_id,stop_name,location_type,parent_station,wheelchair_boarding
            STN_A03,Dupont Circle,1,,1
            E,Entrance,2,STN_A03,1
            N1,Top of Elevator Between Street and Mezzanine,3,STN_A03,
            N2,Bottom of Elevator Between Street and Mezzanine,3,STN_A03,
            P,Dupont Circle,0,STN_A03,1
            """.utf8)
        let pathways = Array("""
            pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional
            W1,E,N1,1,1
            EL1,N1,N2,5,1
            W2,N2,P,1,1
            """.utf8)
        let topology = try #require(try GTFSPathwaysDecoder.decode(stops: stops, pathways: pathways).stations["STN_A03"])
        return StationDirectory(platforms: try GTFSStopsDecoder.decode(stops).platforms,
                                agencies: [Agency(id: "WMATA", name: "WMATA", timeZone: "America/New_York")], topologies: ["STN_A03": topology])
    }

    @Test func statusReadBeforeTheZoneWasKnownIsReadAgainInIt() throws {
        let store = Store(alertsSource: nil, stationsSource: "test:stations", facilitiesSource: "test:facilities", clock: .fixed(Self.t0), zones: .cta)
        let body = Array(#"{"ElevatorIncidents":[{"UnitName":"A03N04","UnitType":"ELEVATOR","StationCode":"A03","LocationDescription":"Elevator between street and mezzanine","DateOutOfServ":"2026-09-10T05:30:00"}]}"#.utf8)
        // No zone is known yet: the wall-clock time is read as UTC.
        let early = try FacilitiesBody.decode(body, local: .notKnown)
        store.install(facilities: FacilitiesLoad(feed: early, body: body, local: .notKnown), at: Self.t0)
        let directory = try Self.directory()
        store.install(stations: directory, at: Self.t0)
        #expect(store.zone.identifier == "America/New_York")
        let station = try #require(directory.station(for: "STN_A03"))
        let now = store.snapshot.stepFreeNow(for: station, alertPositions: [])
        #expect(now.outages.map(\.since) == [Instant(secondsSince1970: 1_789_032_600)], "05:30 in Washington, 09:30Z")
        #expect(now.stepFree == .none)
    }
}
