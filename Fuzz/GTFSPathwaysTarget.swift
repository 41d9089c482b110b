@testable import StopSheetCore
@testable import StopSheetDaemon
@testable import StopSheetProtocol

/// Fuzz target (see Entry.swift): `pathways.txt` and `levels.txt` read beside one real station's
/// stops (Prague's metro or Euskotren, `RealTopology`). The input is the station's id on its
/// first line (an unknown id: the first station), then `pathways.txt`, then after a NUL byte
/// `levels.txt` (none: the feed has no levels). Beyond "no crash": the stops decode, so the
/// tables never fail, only give notices (the first ones kept); every pathway joins two
/// locations of its station; a platform's access with every elevator closed is no more than
/// with all open; and the station's sheet renders.
public func gtfsPathwaysFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    let firstLine = body.firstIndex(of: 0x0A) ?? body.endIndex
    let stationID = String(decoding: body[..<firstLine], as: UTF8.self)
    let rest = body[min(firstLine + 1, body.endIndex)...]
    let split = rest.firstIndex(of: 0)
    let pathways = Array(rest[..<(split ?? rest.endIndex)])
    let levels = split.map { Array(rest[($0 + 1)...]) }
    let real = RealTopology.all[stationID.hasPrefix("ES:") ? 1 : 0]
    let stops = real.stationStops[stationID] ?? real.stationStops[real.stationStops.keys.min()!]!
    let decoded: GTFSPathwaysDecoder.Decoded
    do {
        decoded = try GTFSPathwaysDecoder.decode(stops: stops, pathways: pathways, levels: levels, limits: DecodingLimits(maxDepth: 64, maxItems: 2_000))
    } catch {
        preconditionFailure("real stops.txt failed beside a fuzzed pathways.txt: \(error)")
    }
    precondition(decoded.notices.first.count == min(decoded.notices.count, FeedNotices.kept), "notices keep the first ones")
    for (id, topology) in decoded.stations {
        precondition(topology.stationID == id, "a topology filed under another station")
        let ids = Set(topology.locations.map(\.id))
        for pathway in topology.pathways {
            precondition(ids.contains(pathway.fromStopID) && ids.contains(pathway.toStopID), "pathway \(pathway.id) leaves its station")
        }
        let closed = topology.access(closedPathways: Set(topology.elevatorPathways))
        for (shut, open) in zip(closed, topology.openAccess) {
            precondition((!shut.entry || open.entry) && (!shut.exit || open.exit), "closing elevators gave access")
        }
    }
    var stations = try! GTFSStopsDecoder.decode(stops)
    stations.topologies = decoded.stations
    let directory = StationDirectory(stations)
    let snapshot = Snapshot.build(stations: directory, alerts: [], now: facilitiesNow)
    renderSamples(snapshot, extraStopIDs: Array(decoded.stations.keys.sorted().prefix(2)))
    return 0
}
