import StopSheetCore
import Testing

/// Lift status older than its stale-after: every unit counts as `unknown`, and a snapshot
/// rebuilds at the moment the data turns stale.
@Suite struct FacilityDataTests {
    static let t0 = Instant(secondsSince1970: 1_800_000_000)

    static func directory() throws -> StationDirectory {
        let stops = Array("""
            stop_id,stop_name,location_type,parent_station,wheelchair_boarding
            S,Station,1,,1
            E,Entrance,2,S,1
            N1,Lift top,3,S,
            N2,Lift bottom,3,S,
            P,Platform,0,S,1
            """.utf8)
        let pathways = Array("""
            pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional,facility_id
            W1,E,N1,1,1,
            L1,N1,N2,5,1,LIFT-1
            W2,N2,P,1,1,
            """.utf8)
        let topology = try #require(try GTFSPathwaysDecoder.decode(stops: stops, pathways: pathways).stations["S"])
        return StationDirectory(platforms: try GTFSStopsDecoder.decode(stops).platforms, topologies: ["S": topology])
    }

    static let data = FacilityData(units: [FacilityUnit(unitID: "LIFT-1", facility: .elevator, status: .notAvailable)], lastGoodLoad: t0,
                                   staleAfterSeconds: 60)

    @Test func olderThanTheLimitEveryUnitIsUnknown() {
        #expect(!Self.data.isStale(at: Self.t0.adding(seconds: 60)))
        #expect(Self.data.isStale(at: Self.t0.adding(seconds: 61)))
        var made = Self.data
        made.producedAt = Self.t0.adding(seconds: -100)
        #expect(made.isStale(at: Self.t0), "a feed that says it was made long ago is stale, though just loaded")
    }

    @Test func theSnapshotRebuildsWhenTheDataTurnsStale() throws {
        let stations = try Self.directory()
        let fresh = Snapshot.build(stations: stations, alerts: nil, facilities: Self.data, now: Self.t0.adding(seconds: 10))
        #expect(fresh.nextBoundary == Self.t0.adding(seconds: 61))
        let station = try #require(stations.station(for: "S"))
        let out = fresh.stepFreeNow(for: station, alertPositions: [])
        #expect(out.stepFree == .none && out.platforms.map(\.entry) == [false])
        let stale = fresh.rebuilt(now: Self.t0.adding(seconds: 61))
        let unknown = stale.stepFreeNow(for: station, alertPositions: [])
        #expect(unknown.outages.map(\.status) == [.unknown])
        #expect(unknown.stepFree == .unknown && unknown.platforms.map(\.entry) == [nil] && !unknown.complete)
        #expect(stale.facilityListing().first?.units.map(\.unit.status) == [.unknown])
    }

    /// The listing (the `facilities` answer) has every unit, an `available` one too, though the
    /// verdict counts only the units out.
    @Test func theListingKeepsAnAvailableUnitTheVerdictLeavesOut() throws {
        let stations = try Self.directory()
        let working = FacilityData(units: [FacilityUnit(unitID: "LIFT-1", facility: .elevator, status: .available)], lastGoodLoad: Self.t0,
                                   staleAfterSeconds: 60)
        let snapshot = Snapshot.build(stations: stations, alerts: nil, facilities: working, now: Self.t0.adding(seconds: 10))
        let listing = snapshot.facilityListing()
        #expect(listing.map { $0.station?.id } == ["S"])
        #expect(listing.first?.units.map(\.unit.unitID) == ["LIFT-1"] && listing.first?.units.map(\.unit.status) == [.available])
        let station = try #require(stations.station(for: "S"))
        #expect(snapshot.facilityListing(at: station).first?.units.map(\.unit.unitID) == ["LIFT-1"])
        let now = snapshot.stepFreeNow(for: station, alertPositions: [])
        #expect(now.outages.isEmpty && now.stepFree == .available)
    }
}
