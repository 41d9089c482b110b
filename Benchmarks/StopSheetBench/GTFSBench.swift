import Glibc
import StopSheetCore
import StopSheetDaemon

/// `gtfs-feed --out DIR [--trips N]`: writes a synthetic GTFS feed at CTA's scale into DIR —
/// 150 stations with two rail platforms each, 10,000 stops (the rest bus stops, some bus bays
/// parented to stations), 100,000 trips (a fifth rail), about 8 million `stop_times` rows in
/// CTA's column layout. Deterministic, so runs compare.
func runGTFSFeedGenerator(_ options: Options) {
    let directory = options.string("out")
    let tripCount = options.int("trips", 100_000)
    let railRoutes = ["Red", "Blue", "Brn", "G", "Org", "P", "Pink", "Y"]
    var random: UInt64 = 0x2545_F491_4F6C_DD1D
    func next(_ bound: Int) -> Int {
        random ^= random << 13
        random ^= random >> 7
        random ^= random << 17
        return Int(random % UInt64(bound))
    }

    func write(_ name: String, _ body: (TableWriter) -> Void) {
        let writer = TableWriter(directory + "/" + name)
        body(writer)
        writer.close()
    }

    let stations = (0..<150).map { 40_000 + $0 * 10 }
    let busStops = 10_000 - stations.count * 3
    write("stops.txt") { table in
        table.line("stop_id,stop_code,stop_name,stop_desc,stop_lat,stop_lon,location_type,parent_station,wheelchair_boarding")
        for (index, station) in stations.enumerated() {
            table.line("\(station),,Station \(index),,41.8,-87.6,1,,\(index % 3)")
            table.line("\(30_000 + index * 2),,Station \(index) platform,,41.8,-87.6,0,\(station),\(index % 4 == 0 ? 0 : 1)")
            table.line("\(30_001 + index * 2),,Station \(index) platform,,41.8,-87.6,0,\(station),\(index % 5 == 0 ? 2 : 0)")
            table.line("\(60_000 + index),,Station \(index) entrance,,41.8,-87.6,2,\(station),1")
        }
        for stop in 0..<busStops {
            // Every 60th bus stop is a bay of a rail station, as CTA's 14xxx/17xxx.
            let parent = stop % 60 == 0 ? String(stations[stop / 60 % stations.count]) : ""
            table.line("\(1 + stop),\(1 + stop),Bus stop \(stop),,41.8,-87.6,0,\(parent),1")
        }
    }
    write("routes.txt") { table in
        table.line("route_id,route_short_name,route_long_name,route_type,route_url,route_color,route_text_color")
        for route in railRoutes { table.line("\(route),,\(route) Line,1,,,") }
        for bus in 1...120 { table.line("\(bus),\(bus),Bus \(bus),3,,,") }
    }
    var rows = 0
    write("trips.txt") { table in
        table.line("route_id,service_id,trip_id,direction_id,block_id,shape_id,direction,wheelchair_accessible,schd_trip_id")
        for trip in 0..<tripCount {
            let route = trip % 5 == 0 ? railRoutes[trip / 5 % railRoutes.count] : String(1 + trip % 120)
            table.line("\(route),\(trip % 7),\(1_000_000_000 + trip),\(trip % 2),\(trip / 10),\(trip % 400),North,1,R\(trip)")
        }
    }
    write("stop_times.txt") { table in
        table.line("trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type,shape_dist_traveled")
        for trip in 0..<tripCount {
            let rail = trip % 5 == 0
            let routeIndex = trip / 5 % railRoutes.count
            let stops = rail ? 25 : 94
            for sequence in 0..<stops {
                let stop = rail ? 30_000 + (routeIndex * 38 + trip / 40 % 13 * 25 + sequence) % (stations.count * 2) : 1 + next(busStops)
                let minute = 300 + sequence
                table.line("\(1_000_000_000 + trip),\(minute / 60):\(minute % 60 < 10 ? "0" : "")\(minute % 60):00,\(minute / 60):\(minute % 60 < 10 ? "0" : "")\(minute % 60):00,\(stop),\(sequence + 1),,0,\(sequence * 1000)")
                rows += 1
            }
        }
    }
    print("gtfs-feed: \(stations.count) stations, \(stations.count * 4 + busStops) stops, \(tripCount) trips, \(rows) stop_times rows in \(directory)")
}

/// `gtfs-decode --feed DIR|ZIP`: decodes a feed as the daemon's stations refresh does (a
/// directory streamed from disk, or a zip read into memory and streamed through libarchive) and prints
/// the decode time and the process's peak RSS.
func runGTFSDecodeBench(_ options: Options) {
    let feed = options.string("feed")
    let started = monotonicNanos()
    let stations: Int
    do {
        // A large body cap: the bench measures decoding, not the daemon's default 16 MiB cap.
        let source = try makeSource(url: "file://" + feed, options: HTTPOptions(version: "bench", maxBodyBytes: 1 << 30))
        guard case .success(.body(let bytes, _, _, _, _)) = source.fetch(validators: nil) else { fail("cannot read \(feed)") }
        stations = try StationsBody.directory(bytes, source: source).count
    } catch {
        fail("decode failed: \(error)")
    }
    let milliseconds = Double(monotonicNanos() - started) / 1e6
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    print("gtfs-decode: \(feed.hasSuffix(".zip") ? "zip" : "directory") stations=\(stations) decode_ms=\(Int(milliseconds)) peak_rss_kb=\(usage.ru_maxrss)")
}

/// A table file written through a 1 MiB buffer.
final class TableWriter {
    private let file: UnsafeMutablePointer<FILE>
    private var buffer: [UInt8] = []

    init(_ path: String) {
        guard let file = fopen(path, "w") else { fail("cannot write \(path)") }
        self.file = file
        buffer.reserveCapacity(1 << 20)
    }

    func line(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count > (1 << 20) - 512 { flush() }
    }

    func close() {
        flush()
        fclose(file)
    }

    private func flush() {
        _ = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        buffer.removeAll(keepingCapacity: true)
    }
}
