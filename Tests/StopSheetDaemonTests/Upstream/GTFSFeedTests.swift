import Foundation
@testable import StopSheetDaemon
import StopSheetCore
import Testing

/// GTFS static feeds through the daemon's zip reader and directory reader: real CTA stops with
/// routes, trips and stop times made for the test (Tests/GTFS/make_feed.py), whose lines come
/// from the real 'L' stops export's route flags.
@Suite struct GTFSFeedTests {
    /// What the feed says: each platform's lines are its 'L' stops flags (Purple Express trips
    /// run as P), for the platforms both files know.
    static func expectedLines() throws -> [String: [RouteID]] {
        let gtfsIDs = Set(try StationsDecoder.decodeStations(GTFSFeeds.bytes(GTFSFeeds.tests + "/Fixtures/gtfs_stops_2022-01.RAIL_SUBSET.txt")).platforms.map(\.stopID))
        var lines: [String: [RouteID]] = [:]
        for platform in try StationsDecoder.decode(GTFSFeeds.bytes(GTFSFeeds.tests + "/Fixtures/L_stops_2021.csv")) where gtfsIDs.contains(platform.stopID) {
            lines[platform.stopID] = Array(Set(platform.routes.map { $0 == .purpleExpress ? .purple : $0 })).sorted()
        }
        return lines
    }

    static func directory(_ options: [String]) throws -> StationDirectory {
        let root = try GTFSFeeds.staticFeed(options)
        defer { try? FileManager.default.removeItem(atPath: root) }
        if options.contains("--dir") {
            let source = try makeSource(url: "file://" + root + "/feed", options: HTTPOptions(version: "test"))
            guard case .success(.body(let stops, _, _, _, _)) = source.fetch(validators: nil) else { throw TestFailure("fetch failed") }
            return try StationsBody.directory(stops, source: source)
        }
        let source = try makeSource(url: "file://" + root + "/feed.zip", options: HTTPOptions(version: "test"))
        guard case .success(.body(let bytes, _, _, _, _)) = source.fetch(validators: nil) else { throw TestFailure("fetch failed") }
        return try StationsBody.directory(bytes, source: source)
    }

    /// Every structure agencies' zips come in (make_feed.py writes each as its tool does), and
    /// the unpacked directory: each loads exactly.
    @Test(arguments: [
        [], ["--method", "stored"], ["--method", "bzip2"], ["--method", "lzma"], ["--descriptors"], ["--zip64"],
        ["--folder", "google_transit"], ["--mac"], ["--mac", "--folder", "feed"], ["--method", "lzma", "--zip64", "--descriptors"], ["--dir"],
    ])
    func theFeedGivesEveryPlatformItsLines(options: [String]) throws {
        let directory = try Self.directory(options)
        let expected = try Self.expectedLines()
        #expect(directory.linesKnown)
        let platforms = directory.stations.flatMap(\.platforms)
        #expect(Dictionary(uniqueKeysWithValues: platforms.map { ($0.stopID, $0.routes) }) == expected.filter { !$0.value.isEmpty })
        #expect(directory.station(for: "40380")?.routes == [.blue, .brown, .green, .orange, .purple, .pink])
        // Bus bays have bus trips only: not platforms, even with a feed.
        #expect(directory.station(for: "14003") == nil)
        #expect(platforms.count > 280)
        // Entrances and inheritance come from stops.txt as without a feed.
        #expect(directory.station(for: "40630")?.entrances.count == 7)
        #expect(directory.station(for: "40910")?.stepFree == .available)
    }

    /// How loading a feed zip fails, or "no failure".
    static func failure(_ bytes: [UInt8]) throws -> String {
        let source = try makeSource(url: "file:///feed.zip", options: HTTPOptions(version: "test"))
        do {
            _ = try StationsBody.directory(bytes, source: source)
            return "no failure"
        } catch {
            return "\(error)"
        }
    }

    /// A broken archive fails naming the entry and the reason: make_feed.py damages
    /// stop_times.txt as each fault really comes (a stored entry, so that only the CRC-32 can
    /// tell the changed digit).
    @Test(arguments: [
        (["--method", "stored", "--damage", "crc"], "zip archive: 'stop_times.txt' cannot be read: ZIP bad CRC: "),
        (["--damage", "encrypted"], "zip archive: 'stop_times.txt' is encrypted"),
        (["--damage", "method"], "zip archive: 'stop_times.txt' cannot be read: Unsupported ZIP compression method (97: "),
        (["--damage", "truncated"], "zip archive: no end of central directory: the archive is truncated"),
    ])
    func aBrokenArchiveFailsNamingTheEntryAndWhy(options: [String], message: String) throws {
        let root = try GTFSFeeds.staticFeed(options)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let failure = try Self.failure(GTFSFeeds.bytes(root + "/feed.zip"))
        #expect(failure.hasPrefix(message), "\(failure)")
    }

    /// What macOS adds beside a feed's files, and folders, are no tables.
    @Test func macOSMetadataAndFoldersAreNotFiles() {
        #expect(ZipFeed.isFile("stops.txt") && ZipFeed.isFile("google_transit/stops.txt"))
        #expect(!ZipFeed.isFile("__MACOSX/._stops.txt") && !ZipFeed.isFile("__MACOSX/feed/stops.txt"))
        #expect(!ZipFeed.isFile("feed/._stops.txt") && !ZipFeed.isFile(".DS_Store") && !ZipFeed.isFile("feed/"))
    }

    @Test func damagedArchivesAreFailuresThatSayWhy() throws {
        let root = try GTFSFeeds.staticFeed()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let zip = try GTFSFeeds.bytes(root + "/feed.zip")
        // A flipped byte inside the deflated stop_times: inflating or the CRC-32 catches it.
        let name = Array("stop_times.txt".utf8)
        let header = try #require(zip.indices.dropLast(30 + name.count).first { at in
            zip[at..<(at + 4)].elementsEqual([0x50, 0x4B, 0x03, 0x04]) && zip[(at + 30)..<(at + 30 + name.count)].elementsEqual(name)
        })
        let field = { (at: Int) in Int(zip[at]) | Int(zip[at + 1]) << 8 }
        let compressed = field(header + 18) | field(header + 20) << 16
        var flipped = zip
        flipped[header + 30 + name.count + field(header + 28) + compressed / 2] ^= 0x55
        let message = try Self.failure(flipped)
        #expect(message.hasPrefix("zip archive: 'stop_times.txt' "), "\(message)")
        // The central directory pointing past the end.
        var pointing = zip
        let end = zip.count - 22
        pointing[end + 16] = 0xFF
        pointing[end + 17] = 0xFF
        let outside = try Self.failure(pointing)
        #expect(outside.hasPrefix("zip archive: "), "\(outside)")
        // A feed without stops.txt.
        var renamed = zip
        for index in renamed.indices.dropLast(9) where renamed[index..<(index + 9)].elementsEqual("stops.txt".utf8) {
            renamed[index] = UInt8(ascii: "x")
        }
        #expect(try Self.failure(renamed) == "GTFS feed has no stops.txt")
    }

    /// A fuzz finding (issue 45, the gtfs-zip target): an LZMA entry whose header asks for a
    /// 2 GiB dictionary, which liblzma allocated before decoding a byte, is a failure naming it.
    @Test func anLZMAEntryAskingForAHugeDictionaryIsAFailureNotAnAllocation() throws {
        let zip = Fixtures.bytes("fuzz-findings/gtfs-zip-lzma-2gib-dictionary.zip")
        let failure = try Self.failure(zip)
        #expect(failure == "zip archive: 'trips.txt' asks for a 2048 MiB LZMA dictionary, over the 128 MiB this reads", "\(failure)")
        let dictionaries = zip.withUnsafeBytes { ZipFeed.lzmaDictionaries($0) }
        #expect(dictionaries == ["agency.txt": 8 << 20, "routes.txt": 8 << 20, "stop_times.txt": 8 << 20, "stops.txt": 8 << 20, "trips.txt": 2_147_483_741])
    }

    /// Each LZMA entry's dictionary is found through the classic central directory and through
    /// the ZIP64 records (make_feed.py's `--zip64`: the classic end record's fields all full),
    /// with and without data descriptors: Python's zipfile writes LZMA at preset 6, 8 MiB.
    @Test(arguments: [["--method", "lzma"], ["--method", "lzma", "--zip64"], ["--method", "lzma", "--zip64", "--descriptors"]])
    func eachLZMAEntrysDictionaryIsFound(options: [String]) throws {
        let root = try GTFSFeeds.staticFeed(options)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let zip = try GTFSFeeds.bytes(root + "/feed.zip")
        let dictionaries = zip.withUnsafeBytes { ZipFeed.lzmaDictionaries($0) }
        #expect(dictionaries == ["agency.txt": 8 << 20, "routes.txt": 8 << 20, "stop_times.txt": 8 << 20, "stops.txt": 8 << 20, "trips.txt": 8 << 20])
    }

    /// A directory of `stops.txt` and `agency.txt` alone reads the agency: its name and zone.
    @Test func aDirectoryOfStopsAndAgencyReadsTheAgency() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "agency_name,agency_url,agency_timezone\nMassachusetts Bay,https://example.org,America/New_York\n"
            .write(toFile: directory + "/agency.txt", atomically: true, encoding: .utf8)
        try "stop_id,stop_name,location_type,parent_station\nS,South,1,\nS1,South 1,0,S\n".write(toFile: directory + "/stops.txt", atomically: true, encoding: .utf8)
        let source = try makeSource(url: "file://" + directory, options: HTTPOptions(version: "test"))
        guard case .success(.body(let stops, _, _, _, _)) = source.fetch(validators: nil) else { throw TestFailure("fetch failed") }
        let stations = try StationsBody.directory(stops, source: source)
        #expect(stations.agencies == [Agency(id: nil, name: "Massachusetts Bay", timeZone: "America/New_York")])
        #expect(stations.station(for: "S1")?.agencyName == "Massachusetts Bay")
        #expect(!stations.linesKnown && stations.tablesMissing == ["routes.txt", "trips.txt", "stop_times.txt"])
    }

    /// Without trips.txt the feed loads as its stops.txt alone does, its agency still read, and
    /// says which table leaves the lines unknown.
    @Test func aFeedWithoutTripsLoadsItsStopsAndAgency() throws {
        let root = try GTFSFeeds.staticFeed()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var zip = try GTFSFeeds.bytes(root + "/feed.zip")
        for index in zip.indices.dropLast(9) where zip[index..<(index + 9)].elementsEqual("trips.txt".utf8) {
            zip[index] = UInt8(ascii: "x")
        }
        let source = try makeSource(url: "file://" + root + "/feed.zip", options: HTTPOptions(version: "test"))
        let directory = try StationsBody.directory(zip, source: source)
        let alone = StationDirectory(try StationsDecoder.decodeStations(GTFSFeeds.bytes(GTFSFeeds.tests + "/Fixtures/gtfs_stops_2022-01.RAIL_SUBSET.txt")))
        #expect(!directory.linesKnown)
        #expect(directory.tablesMissing == ["trips.txt"])
        #expect(directory.stations.map(\.id) == alone.stations.map(\.id))
        #expect(directory.stations.flatMap(\.platforms).map(\.stopID) == alone.stations.flatMap(\.platforms).map(\.stopID))
        #expect(directory.agencies == [Agency(id: "CTA", name: "Chicago Transit Authority", timeZone: "America/Chicago")])
    }

    @Test(arguments: [
        ("https://example.org/ServiceAlerts.pb?key=s3cret", "https://example.org/ServiceAlerts.pb?key=REDACTED"),
        ("https://u:p@example.org/a?api_key=1&route=Red&token=2#x", "https://REDACTED@example.org/a?api_key=REDACTED&route=Red&token=REDACTED#x"),
        ("http://example.org/a?outputType=JSON&Access_Token=abc", "http://example.org/a?outputType=JSON&Access_Token=REDACTED"),
        ("file:///tmp/feed.zip", "file:///tmp/feed.zip"),
        ("http://example.org/@notuser?key", "http://example.org/@notuser?key"),
    ])
    func credentialsInURLsAreRedacted(url: String, shown: String) throws {
        #expect(redactedURL(url) == shown)
    }

    @Test func aFeedZipURLGetsItsOwnBodyCap() throws {
        let options = HTTPOptions(version: "test")
        let zip = try #require(try makeSource(url: "file:///tmp/google_transit.ZIP", options: options) as? FileSource)
        #expect(zip.maxBodyBytes == HTTPOptions.maxFeedZipBytes)
        let http = try #require(try makeSource(url: "https://example.org/feed.zip?key=1", options: options) as? HTTPSource)
        #expect(http.options.maxBodyBytes == HTTPOptions.maxFeedZipBytes)
        let csv = try #require(try makeSource(url: "file:///tmp/stops.csv", options: options) as? FileSource)
        #expect(csv.maxBodyBytes == HTTPOptions.defaultMaxBodyBytes)
        let notZip = try #require(try makeSource(url: "https://example.org/stops?name=feed.zip", options: options) as? HTTPSource)
        #expect(notZip.options.maxBodyBytes == HTTPOptions.defaultMaxBodyBytes)
    }

    @Test func aSourceShowsOnlyTheRedactedURL() throws {
        let source = try makeSource(url: "https://example.org/a.pb?key=s3cret", options: HTTPOptions(version: "test"))
        #expect(source.url == "https://example.org/a.pb?key=REDACTED")
        do {
            _ = try makeSource(url: "htp:/?key=s3cret", options: HTTPOptions(version: "test"))
            Issue.record("a URL with an unknown scheme was accepted")
        } catch {
            #expect(!"\(error)".contains("s3cret"), "\(error)")
        }
        do {
            _ = try makeSource(url: "file:///tmp/x?key=s3cret", options: HTTPOptions(version: "test"))
            Issue.record("a file URL with a query was accepted")
        } catch {
            #expect(!"\(error)".contains("s3cret"), "\(error)")
        }
    }
}
