@testable import StopSheetCore
@testable import StopSheetDaemon
@testable import StopSheetProtocol

/// Fuzz target (see Entry.swift): a lift-status body as `--facilities-url` serves it, through
/// format recognition (`FacilitiesBody`: SIRI-FM through libxml2; WMATA's, NYCT's, TfL's, DB
/// FaSta's or IDFM's JSON; IDFM's `;`-separated CSV), placed on Prague's and Euskotren's real
/// topology, built into a snapshot and rendered. Beyond "no crash": the format is the one the
/// first byte names (IDFM's CSV: the one its first line names), every unit has an id and text
/// (and what it serves) safe for a terminal, an IDFM lift is an elevator, the rows are within the
/// item cap, the notices keep the first ones, a unit is placed only at a station of the
/// directory, and the next clock change is ahead.
public func facilitiesFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    let limits = DecodingLimits(maxDepth: 64, maxItems: 500)
    let feed: FacilitiesDecoder.Feed
    do {
        feed = try FacilitiesBody.decode(body, local: FuzzFixtures.zones.chicago, limits: limits)
    } catch {
        precondition(!error.description.isEmpty, "a failure must say why")
        return 0
    }
    let start = body.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    let isXML = body[start...].first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "<")
    precondition((feed.format == .siriFM) == isXML, "a \(isXML ? "" : "non-")XML body read as \(feed.format)")
    if !isXML && FacilitiesDecoder.isCSV(body) { precondition(feed.format == .idfm, "IDFM's CSV header read as \(feed.format)") }
    precondition(feed.units.count <= limits.maxItems, "more units than the item cap")
    precondition(feed.notices.first.count == min(feed.notices.count, FeedNotices.kept), "notices keep the first ones")
    for status in feed.units {
        precondition(!status.unitID.isEmpty, "a unit without an id")
        precondition(UpstreamText.plain(status.description) == status.description, "a description that is not plain")
        precondition(UpstreamText.plain(status.serving) == status.serving, "a serving that is not plain")
        precondition(feed.format != .idfm || status.facility == .elevator, "an IDFM unit that is no elevator")
        precondition(!status.isUpcoming || feed.format == .nyct, "only NYCT marks outages upcoming")
    }
    placeAndRender(feed.units, inventory: .empty, producedAt: feed.producedAt)
    return 0
}

/// The moment the lift-status targets build their snapshots at: the hand-made feeds' week.
let facilitiesNow = Instant(secondsSince1970: 1_789_660_800)

/// Places the `given` units on each real topology and on the hand-made lift fixtures' stations, builds
/// each snapshot and renders the sheets of the stations units were placed at.
func placeAndRender(_ given: [FacilityUnit], inventory: FacilityInventory, producedAt: Instant?) {
    let data = FacilityData(units: given, inventory: inventory, lastGoodLoad: facilitiesNow, producedAt: producedAt, staleAfterSeconds: 600)
    if let next = data.nextChange(after: facilitiesNow) { precondition(next > facilitiesNow, "the next change is behind") }
    for directory in RealTopology.all.map(\.directory) + [FuzzFixtures.liftStations] {
        let placed = data.joined(to: directory, at: facilitiesNow).byStation
        for (stationID, units) in placed {
            precondition(directory.station(for: stationID)?.id == stationID, "a unit placed at '\(stationID)', no station")
            precondition(units.allSatisfy { unit in given.contains { $0.unitID == unit.unitID } }, "a unit the feed did not give")
        }
        // Encoding every station's sheet is most of a run: the stations units were placed at
        // (at most four) are built and rendered on their own.
        let stations = placed.keys.sorted().prefix(4).compactMap { directory.station(for: $0) }
        guard !stations.isEmpty else { continue }
        let topologies = Dictionary(uniqueKeysWithValues: stations.compactMap { station in directory.topologies[station.id].map { (station.id, $0) } })
        let placedOnly = StationDirectory(platforms: stations.flatMap(\.platforms), entrances: stations.flatMap(\.entrances),
                                          agencies: directory.agencies, topologies: topologies)
        let snapshot = Snapshot.build(stations: placedOnly, alerts: [], facilities: data, now: facilitiesNow)
        renderSamples(snapshot, extraStopIDs: stations.map(\.id))
    }
}

extension FuzzFixtures {
    /// The hand-made lift fixtures' stations (`facilities/gtfs`: Dupont Circle, U1234, Jay St).
    static let liftStations: StationDirectory = {
        let stops = read("facilities/gtfs/stops.txt")
        var decoded = try! GTFSStopsDecoder.decode(stops)
        decoded.topologies = try! GTFSPathwaysDecoder.decode(stops: stops, pathways: read("facilities/gtfs/pathways.txt")).stations
        return StationDirectory(decoded)
    }()
}
