import StopSheetCore
import StopSheetDaemon

/// `stopsheet-bench fresh-build --gtfs DIR`: a stations load's snapshot build on a real GTFS feed
/// (its stops.txt, and pathways.txt and levels.txt when it has them), decoded once: `Snapshot.build`
/// and `EncodedSnapshot.init` without a snapshot before them, median of `--repeat` (9) runs.
/// scripts/bench-wire.sh copies this file into the tree it compares with, so both are measured alike.
func runFreshBuildBench(_ options: Options) {
    let folder = options.string("gtfs")
    func table(_ name: String) -> [UInt8]? { readSmallFile(folder + "/" + name).map { Array($0.utf8) } }
    let directory: StationDirectory
    do {
        guard let stops = table("stops.txt") else { fail("no stops.txt in \(folder)") }
        var decoded = try GTFSStopsDecoder.decode(stops)
        if let pathways = table("pathways.txt") {
            decoded.topologies = try GTFSPathwaysDecoder.decode(stops: stops, pathways: pathways, levels: table("levels.txt")).stations
        }
        directory = StationDirectory(decoded)
    } catch {
        fail("cannot decode \(folder): \(error)")
    }
    let now = Instant(secondsSince1970: 1_764_669_600)
    var times: [Double] = []
    for _ in 0..<max(1, options.int("repeat", 9)) {
        let started = monotonicNanos()
        let encoded = EncodedSnapshot(Snapshot.build(stations: directory, alerts: [], now: now), zone: .utc)
        times.append(Double(monotonicNanos() - started) / 1e6)
        precondition(encoded.stationCount == directory.count)
    }
    print("fresh-build stations=\(directory.count) build_ms=\(format(times.sorted()[times.count / 2], 2))")
}
