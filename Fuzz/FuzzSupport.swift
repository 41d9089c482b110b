import Glibc
@testable import StopSheetCore
@testable import StopSheetDaemon
@testable import StopSheetProtocol

/// What the fuzz targets share: the real CTA fixtures, decoded once per process, and the checks
/// an answer must pass beyond "did not crash".
///
/// Compiled by `scripts/fuzz.sh` against the package's AddressSanitizer build (see there for why
/// not through SwiftPM); `STOPSHEET_FIXTURES` names `Tests/Fixtures`.
enum FuzzFixtures {
    /// The zones of a daemon with no --time-zone, from the system's time-zone database.
    static let zones = try! TimeZones(configured: nil)

    /// The moment the 2015 alerts capture was taken, so its alerts are live, not ended.
    static let capturedAt = zones.chicago.instant(.init(year: 2015, month: 2, day: 14, hour: 14, minute: 35))

    static let stations: StationDirectory = {
        StationDirectory(platforms: try! StationsDecoder.decode(read("L_stops_2021.csv")))
    }()

    static let alerts: [Alert] = {
        try! AlertsDecoder.decode(read("alerts_2015-02-14.DERIVED.json"), chicago: zones.chicago)
    }()

    static func read(_ name: String) -> [UInt8] {
        let directory = getenv("STOPSHEET_FIXTURES").map { String(cString: $0) } ?? "Tests/Fixtures"
        guard let file = fopen(directory + "/" + name, "r") else { fatalError("cannot open \(directory)/\(name); set STOPSHEET_FIXTURES") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return bytes
    }
}

/// Stops whose sheets the decoder targets render: busy, quiet, platform ids, unknown ids.
let sampleStopIDs = ["40380", "30374", "40900", "41450", "40990", "49999", "1106", ""]

/// Traps (a finding for libFuzzer) unless `bytes` is exactly one JSON value.
func requireJSON(_ bytes: some Collection<UInt8>, _ what: @autoclosure () -> String) {
    do {
        _ = try JSONParser.parse(bytes, maxDepth: 10_000)
    } catch {
        fatalError("\(what()) is not JSON (\(error)): \(String(decoding: bytes.prefix(300), as: UTF8.self))")
    }
}

/// Renders every sample sheet of a snapshot and checks each is JSON: the decoders' output must
/// be something the rules and encoder accept, whatever the upstream sent.
func renderSamples(_ snapshot: Snapshot, extraStopIDs: [String] = []) {
    let encoded = EncodedSnapshot(snapshot, zone: FuzzFixtures.zones.chicago)
    let freshness = DataFreshness(lastGoodLoad: nil, now: Instant(secondsSince1970: 0), staleAfterSeconds: 300)
    let data = SheetData(alerts: freshness, stations: freshness, facilities: freshness, zone: FuzzFixtures.zones.chicago)
    for stopID in sampleStopIDs + extraStopIDs {
        if let sheet = encoded.stopSheet(stopID: stopID) { requireJSON(PreEncoded(sheet, data: data.encoded).bytes, "stop sheet \(stopID)") }
    }
    for (index, alert) in snapshot.liveAlerts.enumerated() { requireJSON(alert.encoded(in: FuzzFixtures.zones.chicago).bytes, "alert \(index)") }
}

/// The two real station topologies of `Tests/Fixtures/gtfs-pathways` (Prague's metro, Euskotren):
/// the facilities targets place lift-status units on them, the pathways target reads its input
/// beside their real stops. Decoded once per process.
struct RealTopology: Sendable {
    let feed: String
    let stops: [UInt8]
    let directory: StationDirectory
    /// Each station with pathways: its own rows of the real `stops.txt` under the real header
    /// (the station, its platforms, entrances, nodes and boarding areas), so a fuzzed
    /// `pathways.txt` is read beside one station's stops, not the whole feed's, at each run.
    let stationStops: [String: [UInt8]]

    static let all: [RealTopology] = ["prague-pid-2020-07-02", "euskotren-2025-11-27"].map(RealTopology.init)

    init(_ feed: String) {
        self.feed = feed
        stops = FuzzFixtures.read("gtfs-pathways/\(feed)/stops.txt")
        var decoded = try! GTFSStopsDecoder.decode(stops)
        let topology = try! GTFSPathwaysDecoder.decode(stops: stops, pathways: FuzzFixtures.read("gtfs-pathways/\(feed)/pathways.txt"),
                                                       levels: FuzzFixtures.read("gtfs-pathways/\(feed)/levels.txt"))
        decoded.topologies = topology.stations
        directory = StationDirectory(decoded)
        let rows = try! CSVReader.rows(stops)
        let header = rows[0].map { UpstreamText.trimmed($0).lowercased() }
        let id = header.firstIndex(of: "stop_id")!, parent = header.firstIndex(of: "parent_station")!
        var parentOf: [String: String] = [:]
        for row in rows.dropFirst() where row.count == header.count { parentOf[row[id]] = row[parent] }
        func station(_ stop: String) -> String {
            var at = stop
            for _ in 0..<4 { guard let up = parentOf[at], !up.isEmpty else { break }; at = up }
            return at
        }
        func line(_ row: [String]) -> [UInt8] {
            Array((row.map { "\"" + $0.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\"" }
                .joined(separator: ",") + "\n").utf8)
        }
        var byStation: [String: [UInt8]] = [:]
        for row in rows.dropFirst() where row.count == header.count {
            let owner = station(row[id])
            guard topology.stations[owner]?.pathways.isEmpty == false else { continue }
            byStation[owner, default: line(rows[0])] += line(row)
        }
        stationStops = byStation
    }
}
