@testable import StopSheetCore
@testable import StopSheetDaemon
@testable import StopSheetProtocol

/// Fuzz target (see Entry.swift): the bytes as a GTFS feed zip, read through `ZipFeed`
/// (libarchive's seekable zip reader: deflate, bzip2, LZMA, data descriptors) and the GTFS
/// decoder as a stations refresh reads a zip, then built into a snapshot and rendered. Beyond "no
/// crash": a failure says why, a table streams in chunks of at most `chunkBytes` and reads the
/// same twice, and every platform decoded names a station of the directory.
public func gtfsZipFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let decoded = try ZipFeed.open(body) { feed throws in
            if feed.has("stops.txt") {
                func read() -> [UInt8]? {
                    var bytes: [UInt8] = []
                    do {
                        try feed.stream("stops.txt") { chunk in
                            precondition(chunk.count <= ZipFeed.chunkBytes, "a chunk larger than the pipe's buffer")
                            guard bytes.count < 1 << 20 else { return }
                            bytes += chunk
                        }
                    } catch {
                        precondition(!"\(error)".isEmpty, "a failure must say why")
                        return nil
                    }
                    return bytes
                }
                precondition(read() == read(), "stops.txt reads differently the second time")
            }
            return try GTFSFeed.decode(feed, maxTableBytes: 1 << 20, reading: FeedReading())
        }
        let directory = StationDirectory(decoded)
        for platform in decoded.platforms.prefix(16) {
            precondition(directory.station(for: platform.stopID) != nil, "a platform's id names no station")
        }
        renderSamples(Snapshot.build(stations: directory, alerts: FuzzFixtures.alerts, now: FuzzFixtures.capturedAt),
                      extraStopIDs: decoded.platforms.prefix(4).flatMap { [$0.stopID, $0.stationID] })
    } catch {
        precondition(!"\(error)".isEmpty, "a failure must say why")
    }
    return 0
}
