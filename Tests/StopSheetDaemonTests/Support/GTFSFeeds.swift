import Foundation
import StopSheetCore

/// Feeds built for a test by the scripts under Tests/GTFS (a static feed, standard library) and
/// Tests/GTFSRealtime (GTFS-realtime, with the independent encoder in the test virtual
/// environment that `venv.sh` creates on first use).
enum GTFSFeeds {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let python = Result { () throws -> String in
        let made = try runProcess("/bin/sh", [tests + "/GTFSRealtime/venv.sh"])
        guard made.status == 0 else { throw TestFailure("venv.sh failed: \(made.stderr.suffix(2000))") }
        return made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A static feed in a new temp directory: `feed.zip`, or the tables in `feed/` with `--dir`.
    static func staticFeed(_ options: [String] = []) throws -> String {
        let directory = try makeTemporaryDirectory()
        let made = try runProcess("/usr/bin/env", ["python3", tests + "/GTFS/make_feed.py", "--out", directory] + options)
        guard made.status == 0 else { throw TestFailure("make_feed.py failed: \(made.stderr)") }
        return directory
    }

    /// GTFS-realtime feeds (see make_feeds.py) with the capture's moment at `now`.
    static func realtime(now: Int64) throws -> String {
        let directory = try makeTemporaryDirectory()
        let made = try runProcess(try python.get(), [tests + "/GTFSRealtime/make_feeds.py", "--out", directory, "--now", String(now)])
        guard made.status == 0 else { throw TestFailure("make_feeds.py failed: \(made.stderr.suffix(2000))") }
        return directory
    }

    /// A feed directory's stations with their maps (`stops.txt`, `pathways.txt`, `levels.txt`),
    /// decoded as the daemon decodes a feed directory.
    static func stationsWithMaps(in directory: String) throws -> DecodedStations {
        let table = { (name: String) in try bytes(directory + "/" + name) }
        var decoded = try GTFSStopsDecoder.decode(try table("stops.txt"))
        decoded.topologies = try GTFSPathwaysDecoder.decode(stops: try table("stops.txt"), pathways: try table("pathways.txt"),
                                                            levels: try table("levels.txt")).stations
        return decoded
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw TestFailure("cannot read \(path)") }
        return [UInt8](data)
    }
}
