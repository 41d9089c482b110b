@testable import StopSheetCore
@testable import StopSheetDaemon
@testable import StopSheetProtocol

/// Fuzz target (see Entry.swift): the input as a GTFS table. Read by the CSV stream whole and
/// split at a point the input chooses, the records must be the same; as `stops.txt` of a small
/// feed whose one train trip serves stops `1` to `4` (so parentless stations are made), and as
/// each of the feed's other tables, decoding must end in stations or a failure that says why,
/// never a crash, with notices bounded.
public func gtfsCSVFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    func records(_ chunks: [ArraySlice<UInt8>]) -> [[String]]? {
        var stream = CSVRecordStream(maxRecordBytes: 4096)
        var rows: [[String]] = []
        let collect = { (record: CSVRecordStream.Record) throws(DecodingFailure) in rows.append((0..<record.count).map { record[$0] }) }
        do {
            for chunk in chunks { try stream.consume(chunk, collect) }
            try stream.finish(collect)
        } catch {
            return nil
        }
        return rows
    }
    let split = body.isEmpty ? 0 : Int(body[0]) % (body.count + 1)
    let whole = records([body[...]])
    precondition(whole == records([body[..<split], body[split...]]), "a record split between chunks reads differently")
    precondition(whole == records(body.indices.map { body[$0...$0] }), "a record read byte by byte reads differently")

    let tables: [GTFSStopLines.Table: String] = [
        .feedInfo: "feed_publisher_name,feed_lang\nFuzz,en\n",
        .agency: "agency_name,agency_timezone\nFuzz,UTC\n",
        .routes: "route_id,route_type\nR,1\nB,3\n",
        .trips: "route_id,trip_id\nR,t\nB,b\n",
        .stopTimes: "trip_id,stop_id\nt,1\nt,2\nt,3\nt,4\nb,5\n",
    ]
    for replaced in [nil] + GTFSStopLines.Table.allCases {
        var lines = GTFSStopLines()
        do {
            for table in GTFSStopLines.Table.allCases {
                lines.begin(table)
                try lines.consume(table == replaced ? body : Array(tables[table]!.utf8))
                try lines.end()
            }
            let stops = replaced == nil ? body : Array("stop_id,stop_name,stop_lat,stop_lon\n1,A,0,0\n2,A,0,0.001\n3,B,0,0\n4,,,\n".utf8)
            let decoded = try GTFSStopsDecoder.decode(stops, feed: lines, limits: DecodingLimits(maxDepth: 64, maxItems: 500))
            precondition(decoded.notices.first.count == min(decoded.notices.count, FeedNotices.kept), "notices keep the first ones")
            let directory = StationDirectory(decoded)
            for platform in decoded.platforms.prefix(8) {
                precondition(directory.station(for: platform.stopID) != nil, "a platform's id names its station")
            }
            if let station = directory.stations.first {
                let now = Snapshot.build(stations: directory, alerts: nil, now: FuzzFixtures.capturedAt).stopSheet(for: station).accessibilityButton.now
                requireJSON(PreEncoded(station.detail(advisories: [], now: now, in: FuzzFixtures.zones.chicago)).bytes, "station \(station.id)")
            }
        } catch {
            precondition(!error.description.isEmpty, "a failure must say why")
        }
    }
    return 0
}
