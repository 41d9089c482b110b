import Glibc
import Posix
import StopSheetCore

/// Where a GTFS feed's tables are: a zip archive in memory, or a directory on disk.
protocol GTFSTables {
    /// Whether the feed has the table (`agency.txt` is optional here).
    func has(_ name: String) -> Bool
    /// Streams a table's bytes in chunks; a missing table is a failure.
    func stream(_ name: String, _ chunk: (UnsafeRawBufferPointer) throws -> Void) throws
}

/// A GTFS feed → stations: `agency.txt`, `routes.txt`, `trips.txt` and `stop_times.txt` streamed
/// through `GTFSStopLines` (never held whole), then `stops.txt` read with the lines found, then
/// `pathways.txt` and `levels.txt` when the feed has them. Only `stops.txt` is needed: without
/// routes, trips or stop times the feed loads as `stops.txt` alone does (lines unknown), its
/// agencies and routes still read.
enum GTFSFeed {
    static func decode(_ tables: some GTFSTables, stops: [UInt8]? = nil, maxTableBytes: Int, reading: FeedReading) throws -> DecodedStations {
        var lines = GTFSStopLines(trainRouteTypes: reading.trainRouteTypes)
        // Trips and stop times are read only when together they can tell the lines.
        let linesKnowable = GTFSStopLines.linesTables.allSatisfy { tables.has($0.rawValue) }
        for table in GTFSStopLines.Table.allCases
        where tables.has(table.rawValue) && (linesKnowable || !GTFSStopLines.linesTables.dropFirst().contains(table)) {
            lines.begin(table)
            try tables.stream(table.rawValue) { chunk throws in try lines.consume(chunk) }
            try lines.end()
        }
        let whole = { (name: String) throws -> [UInt8] in try tables.whole(name, maxBytes: maxTableBytes) }
        let stopsBytes = try stops ?? whole("stops.txt")
        var decoded = try GTFSStopsDecoder.decode(stopsBytes, feed: lines)
        // The tables the feed lacks, not those left unread beside them.
        if !linesKnowable { decoded.tablesMissing = GTFSStopLines.linesTables.map(\.rawValue).filter { !tables.has($0) } }
        let pathways = GTFSPathwaysDecoder.pathwaysFile, levels = GTFSPathwaysDecoder.levelsFile
        if tables.has(pathways) {
            let topology = try GTFSPathwaysDecoder.decode(stops: stopsBytes, pathways: try whole(pathways),
                                                          levels: tables.has(levels) ? try whole(levels) : nil)
            decoded.topologies = topology.stations
            decoded.notices.append(topology.notices)
        }
        return decoded
    }
}

extension GTFSTables {
    /// A table's bytes whole, at most `maxBytes` of them.
    func whole(_ name: String, maxBytes: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try stream(name) { chunk in
            guard chunk.count <= maxBytes - bytes.count else { throw FetchFailure("GTFS \(name) is larger than \(maxBytes) bytes") }
            bytes.append(contentsOf: chunk)
        }
        return bytes
    }
}

/// A GTFS feed unpacked in a directory: each table streamed from its file (`LocalFile.stream`).
struct GTFSDirectory: GTFSTables {
    var path: String

    func has(_ name: String) -> Bool { access(path + "/" + name, F_OK) == 0 }

    func stream(_ name: String, _ chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        try LocalFile.stream(path + "/" + name, chunk)
    }
}

/// A `file://` URL naming a directory: a GTFS feed unpacked there. Its fetch reads `stops.txt`
/// (under the body cap, like any file); decoding then streams the other tables from disk.
public struct GTFSDirectorySource: Source {
    public let url: String
    let directory: GTFSDirectory
    let maxBodyBytes: Int

    /// The source for a file URL when its path is a directory, else nil.
    static func ifDirectory(_ file: FileSource) -> GTFSDirectorySource? {
        var info = stat()
        guard stat(file.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        return GTFSDirectorySource(url: file.url, directory: GTFSDirectory(path: file.path), maxBodyBytes: file.maxBodyBytes)
    }

    public func fetch(validators: CacheValidators?, stop: StopFlag) -> Result<Fetched, FetchFailure> {
        FileSource.fetched(directory.path + "/stops.txt", maxBytes: maxBodyBytes)
    }
}

/// A stations body → the station directory, for every kind of stations source: a GTFS feed
/// directory (the body is its `stops.txt`), a GTFS feed zip (told by its signature), or any
/// format the core's `StationsDecoder` detects.
public enum StationsBody {
    public static func directory(_ bytes: [UInt8], source: any Source, reading: FeedReading = .init(),
                                 maxTableBytes: Int = HTTPOptions.defaultMaxBodyBytes) throws -> StationDirectory {
        StationDirectory(try decoded(bytes, source: source, reading: reading, maxTableBytes: maxTableBytes), agencyName: reading.agencyName)
    }

    static func decoded(_ bytes: [UInt8], source: any Source, reading: FeedReading, maxTableBytes: Int) throws -> DecodedStations {
        let source = (source as? CompanionSource)?.main ?? source
        let decoded: DecodedStations
        if let feed = source as? GTFSDirectorySource {
            decoded = try GTFSFeed.decode(feed.directory, stops: bytes, maxTableBytes: maxTableBytes, reading: reading)
        } else if bytes.starts(with: StationsDecoder.zipSignature) {
            decoded = try ZipFeed.open(bytes) { try GTFSFeed.decode($0, maxTableBytes: maxTableBytes, reading: reading) }
        } else {
            decoded = try StationsDecoder.decodeStations(bytes)
        }
        return decoded
    }
}
