import Foundation
import StopSheetDaemon
import Testing

@Suite struct FileSourceTests {
    /// Foundation's encoder builds the URLs, so the source's own percent-decoding is checked
    /// against an independent implementation.
    func fileURL(_ path: String) -> String {
        URL(fileURLWithPath: path).absoluteString
    }

    func tempDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "FileSourceTests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func fixtureReadByteExact() throws {
        let path = Fixtures.path("upstream/stops.csv")
        let source = try FileSource(url: fileURL(path))
        #expect(source.path == path)
        let (bytes, validators, status) = try body(source.fetch(validators: nil))
        #expect(bytes == fixture("stops.csv"))
        #expect(validators == CacheValidators())
        #expect(status == nil)
    }

    @Test func validatorsAreIgnoredAndTheFileAlwaysReturned() throws {
        let source = try FileSource(url: fileURL(Fixtures.path("upstream/alerts.json")))
        let (bytes, _, _) = try body(source.fetch(validators: CacheValidators(etag: "\"x\"", lastModified: "Thu, 01 Jan 2099 00:00:00 GMT")))
        #expect(bytes == fixture("alerts.json"))
    }

    @Test func localhostAndSingleSlashFormsAreAccepted() throws {
        #expect(try FileSource(url: "file://localhost/srv/a.json").path == "/srv/a.json")
        #expect(try FileSource(url: "FILE://LocalHost/srv/a.json").path == "/srv/a.json")
        #expect(try FileSource(url: "file:/srv/a.json").path == "/srv/a.json")
    }

    @Test func pathIsPercentDecoded() throws {
        let directory = try tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/alerts für #1 ?.json"
        try Data("{\"alerts\":[]}".utf8).write(to: URL(fileURLWithPath: path))
        let url = fileURL(path)
        #expect(url.contains("%20") && url.contains("%C3%BC") && url.contains("%23"))
        let source = try FileSource(url: url)
        #expect(source.path == path)
        #expect(try body(source.fetch(validators: nil)).0 == Array("{\"alerts\":[]}".utf8))
    }

    @Test func missingFileFailsWithStrerror() throws {
        let source = try FileSource(url: "file:///nonexistent/stopsheetd/alerts.json")
        let failure = try failure(source.fetch(validators: nil))
        #expect(failure == FetchFailure("cannot open /nonexistent/stopsheetd/alerts.json: No such file or directory"))
    }

    @Test func directoryFails() throws {
        let directory = try tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let failure = try failure(FileSource(url: fileURL(directory)).fetch(validators: nil))
        #expect(failure.message.hasPrefix("cannot read \(directory)"), "\(failure.message)")
        #expect(failure.message.hasSuffix(": Is a directory"))
        #expect(failure.httpStatus == nil)
    }

    @Test func fileOverTheCapFails() throws {
        let size = fixture("stops.csv").count
        let path = Fixtures.path("upstream/stops.csv")
        let failure = try failure(FileSource(url: fileURL(path), maxBodyBytes: size - 1).fetch(validators: nil))
        #expect(failure == FetchFailure("file \(path) is larger than \(size - 1) bytes"))
        #expect(try body(FileSource(url: fileURL(path), maxBodyBytes: size).fetch(validators: nil)).0.count == size)
    }

    @Test func capHoldsForFilesWithoutASize() throws {
        // /dev/zero never ends and has no st_size: only the read loop's cap stops it.
        let failure = try failure(FileSource(url: "file:///dev/zero", maxBodyBytes: 100_000).fetch(validators: nil))
        #expect(failure == FetchFailure("file /dev/zero is larger than 100000 bytes"))
    }

    @Test func makeSourceAppliesTheCapToFiles() throws {
        let source = try makeSource(url: "file:///dev/zero", options: HTTPOptions(version: "test", maxBodyBytes: 10))
        #expect(try failure(source.fetch(validators: nil)).message == "file /dev/zero is larger than 10 bytes")
    }

    @Test(arguments: [
        ("file:relative/alerts.json", "must be absolute"),
        ("file:alerts.json", "must be absolute"),
        ("file://data/alerts.json", "host 'data' is not local"),
        ("file://example.com/srv/alerts.json", "host 'example.com' is not local"),
        ("file://", "must be absolute"),
        ("file:///srv/alerts.json?v=2", "query or fragment"),
        ("file:///srv/alerts.json#top", "query or fragment"),
        ("file:///srv/a%2", "bad percent escape"),
        ("file:///srv/a%zz.json", "bad percent escape"),
        ("file:///srv/a%00.json", "%00"),
        ("file:///srv/a%FF.json", "not UTF-8"),
        ("http://example.com/a.json", "not a file URL"),
    ])
    func badFileURLsAreRejected(url: String, expected: String) {
        do {
            _ = try FileSource(url: url)
            Issue.record("accepted \(url)")
        } catch {
            #expect(error.message.contains(expected), "\(error.message)")
            #expect(error.message.contains(url), "the message should quote the URL: \(error.message)")
        }
    }

    /// Percent escapes decode in either case, the last three bytes of a path included; `file:`
    /// alone is a file URL (with no path), in any case.
    @Test func escapesDecodeToTheVeryEnd() throws {
        #expect(try FileSource(url: "file:///srv/a%20").path == "/srv/a ")
        #expect(try FileSource(url: "file:///srv/%41%4a%4F%6a%6F%7e").path == "/srv/AJOjo~")
        #expect(try FileSource(url: "file:///%C3%BC").path == "/ü")
        for url in ["file:", "FILE:", "File:x"] {
            #expect(throws: FetchFailure("file URL path must be absolute (use file:///absolute/path): '\(url)'")) { try FileSource(url: url) }
        }
        #expect(throws: FetchFailure("not a file URL: 'file'")) { try FileSource(url: "file").path }
        #expect(throws: FetchFailure("not a file URL: 'fila:/x'")) { try FileSource(url: "fila:/x").path }
    }
}
