import StopSheetCore

/// A stations round decoded: the station data with the deployer's map (`--topology-url`) applied,
/// the round's own when it brought one that decodes, else the last good load's
/// (`StationDirectory.deployerMap`). A map that did not come or did not decode is a notice in
/// `health.stations` (`topology`, line 0) and never fails the round: the stations load without
/// one, or with the last good one.
enum StationsLoad {
    /// The file name of the notice saying why the round's map was not taken.
    static let keptNoticeFile = "topology"

    static func directory(_ input: CacheLoader.Input, maxTableBytes: Int = HTTPOptions.defaultMaxBodyBytes) throws -> StationDirectory {
        var decoded = try StationsBody.decoded(input.body, source: input.source, reading: input.reading, maxTableBytes: maxTableBytes)
        let previous = input.previousStations?.deployerMap
        var kept: String?
        var map: DeployerMap?
        switch input.companion {
        case nil:
            break
        case .body(let bytes)?:
            do {
                let fresh = try tables(bytes, source: (input.source as? CompanionSource)?.companion, maxTableBytes: maxTableBytes)
                // Applied to a copy: a map whose stops.txt cannot be read leaves the data as it was.
                var applied = decoded
                try fresh.apply(to: &applied)
                decoded = applied
            } catch {
                kept = "the map did not decode: \(error)"
                map = previous
            }
        case .unchanged?:
            map = previous
        case .failed(let failure)?:
            kept = failure.message
            map = previous
        }
        if let map { try? map.apply(to: &decoded) }
        if let kept {
            decoded.notices.add(keptNoticeFile, line: 0, "\(previous == nil ? "no map loaded" : "the last good map kept"): \(kept)")
        }
        return StationDirectory(decoded, agencyName: input.reading.agencyName)
    }

    /// A map's three tables from what its URL brought: a zip archive (over http(s) or `file://`),
    /// or a directory's `stops.txt` with the directory's other tables read beside it.
    static func tables(_ bytes: [UInt8], source: (any Source)?, maxTableBytes: Int) throws -> DeployerMap {
        let read = { (tables: any GTFSTables, stops: [UInt8]?) throws -> DeployerMap in
            DeployerMap(stops: try stops ?? tables.whole("stops.txt", maxBytes: maxTableBytes),
                        pathways: try tables.whole(GTFSPathwaysDecoder.pathwaysFile, maxBytes: maxTableBytes),
                        levels: tables.has(GTFSPathwaysDecoder.levelsFile) ? try tables.whole(GTFSPathwaysDecoder.levelsFile, maxBytes: maxTableBytes) : nil)
        }
        if let directory = source as? GTFSDirectorySource { return try read(directory.directory, bytes) }
        guard bytes.starts(with: StationsDecoder.zipSignature) else {
            throw FetchFailure("not a zip archive of stops.txt, pathways.txt and levels.txt (a directory is read over file:// only)")
        }
        return try ZipFeed.open(bytes) { try read($0, nil) }
    }
}
