import Foundation
import StopSheetDaemon
import Testing

/// HTTPSource against the local upstream.py. Assertions are about outcomes and messages, never
/// elapsed time: timings belong in `make bench`.
@Suite struct HTTPSourceTests {
    let upstream: Upstream

    init() throws {
        upstream = try Upstream.shared()
    }

    func source(_ path: String, timeoutMilliseconds: Int = 5_000, maxBodyBytes: Int = HTTPOptions.defaultMaxBodyBytes,
                maxRedirects: Int = HTTPOptions.defaultMaxRedirects) -> HTTPSource
    {
        HTTPSource(url: upstream.url(path), options: HTTPOptions(
            version: "test", timeoutMilliseconds: timeoutMilliseconds, maxBodyBytes: maxBodyBytes, maxRedirects: maxRedirects))
    }

    // MARK: bodies

    @Test func fixtureServedByteExactWithValidators() throws {
        let (bytes, validators, status) = try body(source("/fixture/alerts.json").fetch(validators: nil))
        #expect(bytes == fixture("alerts.json"))
        #expect(status == 200)
        #expect(validators.etag?.hasPrefix("\"") == true)
        #expect(validators.lastModified?.hasSuffix(" GMT") == true)
    }

    @Test func crlfFixtureIsNotAltered() throws {
        let (bytes, _, _) = try body(source("/fixture/stops.csv").fetch(validators: nil))
        #expect(bytes == fixture("stops.csv"))
        #expect(bytes.contains(0x0D))
    }

    @Test func emptyBodyIsASuccess() throws {
        let (bytes, validators, status) = try body(source("/empty").fetch(validators: nil))
        #expect(bytes.isEmpty)
        #expect(status == 200)
        #expect(validators == CacheValidators())
    }

    @Test func htmlIsPassedThroughForTheDecoderToJudge() throws {
        let (bytes, _, status) = try body(source("/html").fetch(validators: nil))
        #expect(status == 200)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("<!DOCTYPE html>"))
    }

    @Test func ctaErrorBodyIsPassedThrough() throws {
        let (bytes, _, status) = try body(source("/cta-error/25").fetch(validators: nil))
        #expect(status == 200)
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"ErrorCode\": \"25\""))
    }

    @Test func gzipIsOfferedAndDecoded() throws {
        // require=1: the server answers 406 unless the client offered gzip, so success proves both.
        let (bytes, _, status) = try body(source("/gzip/alerts.json?require=1").fetch(validators: nil))
        #expect(status == 200)
        #expect(bytes == fixture("alerts.json"))
    }

    @Test func userAgentAndAcceptEncodingAreSent() throws {
        let (bytes, _, _) = try body(source("/echo-headers").fetch(validators: nil))
        let headers = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: String])
        #expect(headers["user-agent"] == "stopsheetd/test")
        #expect(headers["accept-encoding"]?.contains("gzip") == true)
        #expect(headers["if-none-match"] == nil)
    }

    // MARK: conditional GET

    @Test func etagRoundTripGivesNotModified() throws {
        let source = source("/fixture/alerts.json")
        let (_, validators, _) = try body(source.fetch(validators: nil))
        let second = try source.fetch(validators: validators).get()
        guard case .notModified(let status, _, _) = second else {
            Issue.record("expected notModified, got \(second)")
            return
        }
        #expect(status == 304)
    }

    @Test func lastModifiedAloneGivesNotModified() throws {
        let source = source("/fixture/stops.csv")
        let (_, validators, _) = try body(source.fetch(validators: nil))
        #expect(validators.lastModified != nil)
        let lastModifiedOnly = CacheValidators(lastModified: validators.lastModified)
        guard case .notModified(304, _, _) = try source.fetch(validators: lastModifiedOnly).get() else {
            Issue.record("expected notModified(304)")
            return
        }
    }

    @Test func staleEtagGetsTheBodyAgain() throws {
        let (bytes, validators, status) = try body(
            source("/fixture/alerts.json").fetch(validators: CacheValidators(etag: "\"not-the-current-one\"")))
        #expect(status == 200)
        #expect(bytes == fixture("alerts.json"))
        #expect(validators.etag != "\"not-the-current-one\"")
    }

    @Test func validatorsAreSentAsConditionalHeaders() throws {
        let sent = CacheValidators(etag: "\"abc\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT")
        let (bytes, _, _) = try body(source("/echo-headers").fetch(validators: sent))
        let headers = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: String])
        #expect(headers["if-none-match"] == "\"abc\"")
        #expect(headers["if-modified-since"] == "Wed, 21 Oct 2015 07:28:00 GMT")
    }

    @Test func validatorWithALineBreakIsNotSent() throws {
        let hostile = CacheValidators(etag: "\"a\"\r\nX-Injected: 1", lastModified: "x\ny")
        let (bytes, _, _) = try body(source("/echo-headers").fetch(validators: hostile))
        let headers = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: String])
        #expect(headers["if-none-match"] == nil)
        #expect(headers["if-modified-since"] == nil)
        #expect(headers["x-injected"] == nil)
    }

    // MARK: HTTP failures

    @Test(arguments: [(404, "HTTP 404 Not Found"), (500, "HTTP 500 Internal Server Error"), (503, "HTTP 503 Service Unavailable")])
    func errorStatusIsAFailureWithTheStatus(status: Int, message: String) throws {
        let failure = try failure(source("/status/\(status)").fetch(validators: nil))
        #expect(failure == FetchFailure(message, httpStatus: status))
    }

    /// A status line may have no reason phrase (HTTP/2's never do; RFC 9112 §4 lets HTTP/1.1's
    /// be empty): the status is still read from it.
    @Test func aStatusLineWithoutItsReasonStillGivesTheStatus() throws {
        let failure = try failure(source("/status/503?bare=1").fetch(validators: nil))
        #expect(failure.httpStatus == 503, "\(failure)")
    }

    @Test func missingFixtureIs404() throws {
        let failure = try failure(source("/fixture/no-such-file.json").fetch(validators: nil))
        #expect(failure.httpStatus == 404)
        #expect(failure.message.hasPrefix("HTTP 404"))
    }

    // MARK: transport failures

    @Test func hangPastTheTimeoutFails() throws {
        let failure = try failure(source("/hang?ms=5000", timeoutMilliseconds: 300).fetch(validators: nil))
        #expect(failure.message.contains("timed out after 300 ms"), "\(failure.message)")
        #expect(failure.httpStatus == nil)
    }

    /// A fetch whose stop is raised gives up at libcurl's first progress call, saying why, long
    /// before the upstream's answer or the timeout (the flag is raised before it starts: nothing
    /// here depends on how long anything takes).
    @Test func aStoppedFetchIsAbandoned() throws {
        let stop = StopFlag()
        stop.raise()
        let failure = try failure(source("/hang?ms=30000", timeoutMilliseconds: 60_000).fetch(validators: nil, stop: stop))
        #expect(failure == FetchFailure("abandoned: the daemon is stopping"))
    }

    @Test func truncatedBodyFails() throws {
        let failure = try failure(source("/truncated/alerts.json").fetch(validators: nil))
        #expect(failure.message.contains("transfer closed"), "\(failure.message)")
        #expect(failure.httpStatus == nil)
    }

    @Test func connectionRefusedFails() throws {
        let port = try closedPort()
        let source = HTTPSource(url: "http://127.0.0.1:\(port)/x", options: HTTPOptions(version: "test", timeoutMilliseconds: 2_000))
        let failure = try failure(source.fetch(validators: nil))
        #expect(failure.message.contains("Couldn't connect to server"), "\(failure.message)")
        #expect(failure.httpStatus == nil)
    }

    // MARK: size cap

    @Test func defaultsAreTheDocumentedOnes() {
        let options = HTTPOptions(version: "1.2.3")
        #expect(HTTPOptions.defaultMaxBodyBytes == 16 * 1024 * 1024)
        #expect(options.maxBodyBytes == 16_777_216)
        #expect(options.timeoutMilliseconds == 10_000)
        #expect(options.connectTimeoutMilliseconds == 5_000)
        #expect(options.maxRedirects == 5)
        #expect(options.userAgent == "stopsheetd/1.2.3")
        #expect(HTTPOptions(version: "x", timeoutMilliseconds: 300).connectTimeoutMilliseconds == 300)
    }

    @Test func bodyOverTheCapWithContentLengthFails() throws {
        let failure = try failure(source("/big?bytes=5000", maxBodyBytes: 1_000).fetch(validators: nil))
        #expect(failure == FetchFailure("response larger than 1000 bytes", httpStatus: 200))
    }

    @Test func chunkedBodyOverTheCapFails() throws {
        let failure = try failure(source("/big?bytes=300000&chunked=1", maxBodyBytes: 100_000).fetch(validators: nil))
        #expect(failure == FetchFailure("response larger than 100000 bytes", httpStatus: 200))
    }

    @Test func bodyExactlyAtTheCapIsAccepted() throws {
        let (bytes, _, _) = try body(source("/big?bytes=1000&chunked=1", maxBodyBytes: 1_000).fetch(validators: nil))
        #expect(bytes.count == 1_000)
        #expect(bytes.first == UInt8(ascii: "{") && bytes.last == UInt8(ascii: "}"))
    }

    @Test func capAppliesToTheDecodedBody() throws {
        // alerts.json is ~6.6 KB but gzips to well under 2 KB: only the decoded size may count.
        let failure = try failure(source("/gzip/alerts.json?require=1", maxBodyBytes: 2_000).fetch(validators: nil))
        #expect(failure.message == "response larger than 2000 bytes")
    }

    // MARK: redirects

    @Test func redirectChainIsFollowed() throws {
        let (bytes, validators, status) = try body(source("/redirect?to=/fixture/stops.csv&n=3").fetch(validators: nil))
        #expect(status == 200)
        #expect(bytes == fixture("stops.csv"))
        #expect(validators.etag != nil)
    }

    @Test func redirectsOverTheLimitFail() throws {
        #expect(throws: Never.self) { try body(source("/redirect?to=/empty&n=2", maxRedirects: 2).fetch(validators: nil)) }
        let failure = try failure(source("/redirect?to=/empty&n=3", maxRedirects: 2).fetch(validators: nil))
        #expect(failure == FetchFailure("too many redirects (more than 2)", httpStatus: 302))
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/x"])
    func redirectToANonHTTPSchemeIsRefused(target: String) throws {
        let escaped = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let failure = try failure(source("/redirect?to=\(escaped)&n=1").fetch(validators: nil))
        #expect(failure.message.lowercased().contains("protocol"), "\(failure.message)")
    }

    // MARK: reuse

    @Test func keepAliveConnectionIsReusedAcrossFetches() throws {
        let source = source("/peer")
        let first = try body(source.fetch(validators: nil)).0
        let second = try body(source.fetch(validators: nil)).0
        #expect(first == second, "client port changed: the connection was not reused")
    }

    @Test func concurrentFetchesOnOneSourceAllSucceed() throws {
        let source = source("/fixture/stops.csv")
        let expected = fixture("stops.csv")
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10 {
                if case .success(.body(let bytes, _, _, _, _)) = source.fetch(validators: nil), bytes == expected { continue }
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }

    // MARK: scripted upstream (/dyn), as the daemon's integration tests use it

    @Test func scriptedAnswersAndHitCounts() throws {
        let key = UUID().uuidString
        try upstream.set(key: key, body: #"{"alerts":[]}"#)
        let source = source("/dyn/\(key)")
        let (bytes, validators, _) = try body(source.fetch(validators: nil))
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"alerts":[]}"#)
        guard case .notModified = try source.fetch(validators: validators).get() else {
            Issue.record("expected notModified")
            return
        }
        try upstream.set(key: key, status: 502, body: "<html>bad gateway</html>")
        #expect(try failure(source.fetch(validators: validators)).httpStatus == 502)
        #expect(try upstream.hits(key: key) == 3)
    }

    @Test func upstreamHelperStopsItsServer() throws {
        let own = try Upstream()
        let source = HTTPSource(url: own.url("/empty"), options: HTTPOptions(version: "test", timeoutMilliseconds: 2_000))
        #expect(throws: Never.self) { try body(source.fetch(validators: nil)) }
        own.stop()
        #expect(try failure(source.fetch(validators: nil)).httpStatus == nil)
    }

    // MARK: choosing a source by URL

    @Test func unsupportedSchemeIsRejected() {
        #expect(throws: FetchFailure("unsupported URL scheme 'ftp' (use http, https or file)")) {
            try makeSource(url: "ftp://example.com/alerts.json", options: HTTPOptions(version: "test"))
        }
    }

    @Test func schemeChoosesTheSource() throws {
        let options = HTTPOptions(version: "test")
        #expect(try makeSource(url: "http://example.com/a", options: options) is HTTPSource)
        #expect(try makeSource(url: "HTTPS://example.com/a", options: options) is HTTPSource)
        #expect(try makeSource(url: "file:///tmp/a.json", options: options) is FileSource)
        #expect(try makeSource(url: "https://example.com/a", options: options).url == "https://example.com/a")
    }

    @Test(arguments: ["", "/srv/alerts.json", "alerts.json", "http:///alerts", "https:example.com", "1http://x"])
    func malformedURLsAreRejected(url: String) {
        #expect(throws: FetchFailure.self) { try makeSource(url: url, options: HTTPOptions(version: "test")) }
    }
}

// MARK: helpers

func fixture(_ name: String) -> [UInt8] {
    [UInt8](FileManager.default.contents(atPath: Fixtures.path("upstream/" + name)) ?? Data())
}

struct UnexpectedOutcome: Error, CustomStringConvertible {
    var description: String
}

func body(_ result: Result<Fetched, FetchFailure>) throws -> ([UInt8], CacheValidators, Int?) {
    switch result {
    case .success(.body(let bytes, let validators, let status, _, _)): return (bytes, validators, status)
    case .success(let other): throw UnexpectedOutcome(description: "expected a body, got \(other)")
    case .failure(let failure): throw UnexpectedOutcome(description: "expected a body, got failure: \(failure)")
    }
}

func failure(_ result: Result<Fetched, FetchFailure>) throws -> FetchFailure {
    switch result {
    case .failure(let failure): return failure
    case .success(let outcome): throw UnexpectedOutcome(description: "expected a failure, got \(outcome)")
    }
}

/// A TCP port nothing listens on: bind an ephemeral one, then close it.
private func closedPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard ok else { throw UnexpectedOutcome(description: "cannot bind an ephemeral port") }
    return Int(UInt16(bigEndian: address.sin_port))
}
