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

/// A whole GTFS feed → stations: `agency.txt` (when there), `routes.txt`, `trips.txt` and
/// `stop_times.txt` streamed through `GTFSStopLines` (never held whole), then `stops.txt` read
/// with the lines found.
enum GTFSFeed {
    static func decode(_ tables: some GTFSTables, stops: [UInt8]? = nil, maxTableBytes: Int, reading: FeedReading) throws -> DecodedStations {
        var lines = GTFSStopLines(trainRouteTypes: reading.trainRouteTypes)
        for table in GTFSStopLines.Table.allCases where !table.isOptional || tables.has(table.rawValue) {
            lines.begin(table)
            try tables.stream(table.rawValue) { chunk throws in try lines.consume(chunk) }
            try lines.end()
        }
        var stopsBytes = stops ?? []
        if stops == nil {
            try tables.stream("stops.txt") { chunk in
                guard chunk.count <= maxTableBytes - stopsBytes.count else { throw FetchFailure("GTFS stops.txt is larger than \(maxTableBytes) bytes") }
                stopsBytes.append(contentsOf: chunk)
            }
        }
        return try GTFSStopsDecoder.decode(stopsBytes, feed: lines)
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
        let decoded: DecodedStations
        if let feed = source as? GTFSDirectorySource {
            decoded = try GTFSFeed.decode(feed.directory, stops: bytes, maxTableBytes: maxTableBytes, reading: reading)
        } else if bytes.starts(with: StationsDecoder.zipSignature) {
            decoded = try ZipFeed.open(bytes) { try GTFSFeed.decode($0, maxTableBytes: maxTableBytes, reading: reading) }
        } else {
            decoded = try StationsDecoder.decodeStations(bytes)
        }
        return StationDirectory(decoded, agencyName: reading.agencyName)
    }
}
