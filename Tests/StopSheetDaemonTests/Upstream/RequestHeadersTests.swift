import Foundation
import Glibc
import StopSheetCore
import Testing
@testable import StopSheetDaemon

/// The headers file as curl's `-H @file` reads it, its refusals, and `Retry-After`'s two forms.
@Suite struct RequestHeadersTests {
    func parse(_ text: String) throws(RequestHeaders.Failure) -> RequestHeaders {
        try RequestHeaders.parse(Array(text.utf8), path: "/etc/stopsheetd/alerts.headers")
    }

    func refusal(_ text: String) -> String? {
        do { _ = try parse(text); return nil } catch { return error.description }
    }

    @Test func linesAsCurlReadsThem() throws {
        let headers = try parse("# Transport for NSW\r\n\n  \nAuthorization:  apikey abc def \t\r\nX-Trace:a:b\n")
        #expect(headers.requestLines == ["Authorization: apikey abc def", "X-Trace: a:b"])
        #expect(headers.names == ["Authorization", "X-Trace"])
        #expect(headers.description == "2 headers from alerts.headers (Authorization, X-Trace)")
    }

    /// Two loads are the same headers when they hold the same lines, names and values, in the
    /// same order, from a file of the same name: a new key in the file is a change.
    @Test func headersAreEqualWhenTheirLinesAndFileAre() throws {
        #expect(try parse("A: 1\nB: 2\n") == parse("A: 1\r\n\nB:  2\n"))
        #expect(try parse("A: 1\nB: 2\n") != parse("A: 1\nB: 3\n"))
        #expect(try parse("A: 1\nB: 2\n") != parse("A: 1\nC: 2\n"))
        #expect(try parse("A: 1\nB: 2\n") != parse("B: 2\nA: 1\n"))
        #expect(try parse("A: 1\n") != parse("A: 1\nB: 2\n"))
        #expect(try parse("A: 1\n") != RequestHeaders.parse(Array("A: 1\n".utf8), path: "/etc/stopsheetd/stations.headers"))
        #expect(try parse("A: 1\n") != .none)
    }

    @Test func aBadLineIsRefusedByNumberWithoutItsValue() {
        let path = "/etc/stopsheetd/alerts.headers"
        #expect(refusal("Good: 1\nno colon here secret123\n") == "\(path):2: not a header line (expected Name: value)")
        #expect(refusal("A B: secret123") == "\(path):1: the header name is not an RFC 9110 token (letters, digits and !#$%&'*+-.^_`|~, no spaces)")
        #expect(refusal(": secret123")?.hasPrefix("\(path):1: the header name") == true)
        #expect(refusal("Käse: secret123")?.hasPrefix("\(path):1: the header name") == true)
        #expect(refusal("\n\nDB-Api-Key:   \n") == "\(path):3: header DB-Api-Key has no value")
        #expect(refusal("DB-Api-Key: secret\r123") == "\(path):1: the value of header DB-Api-Key holds a control character")
        #expect(refusal("DB-Api-Key: secret\u{0}123") == "\(path):1: the value of header DB-Api-Key holds a control character")
        #expect(refusal("# only a comment\n") == "\(path) has no header lines")
        for text in ["no colon here secret123", "A B: secret123", "DB-Api-Key: secret\r123"] {
            #expect(refusal(text)?.contains("secret") == false)
        }
    }

    @Test func everyTokenCharacterIsAName() throws {
        #expect(try parse("!#$%&'*+-.^_`|~09azAZ: v").names == ["!#$%&'*+-.^_`|~09azAZ"])
        for byte in Array("\"(),/:;<=>?@[\\]{} ".utf8) where byte != UInt8(ascii: ":") {
            #expect(refusal("A\(Character(Unicode.Scalar(byte)))B: v") != nil, "\(Character(Unicode.Scalar(byte)))")
        }
    }

    /// The values are in no text a header set makes of itself.
    @Test func noTextShowsAValue() throws {
        let headers = try parse("Ocp-Apim-Subscription-Key: 0123456789abcdef\n")
        for text in [headers.description, "\(headers)", String(reflecting: headers), "\(HTTPOptions(version: "1", headers: headers))"] {
            #expect(!text.contains("0123456789abcdef"), "\(text)")
        }
    }

    @Test func theFileMustBeTheOwnersAlone() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/alerts-headers"
        try "apikey: 1\n".write(toFile: path, atomically: true, encoding: .utf8)
        for mode: mode_t in [0o640, 0o604, 0o620, 0o602] {
            chmod(path, mode)
            #expect(throws: RequestHeaders.Failure.self) { try RequestHeaders.load(path) }
        }
        for mode: mode_t in [0o600, 0o400] {
            chmod(path, mode)
            #expect(try RequestHeaders.load(path).names == ["apikey"])
        }
        #expect(mkfifo(directory + "/fifo", 0o600) == 0)
        #expect(throws: RequestHeaders.Failure(description: "\(directory)/fifo is not a regular file")) { try RequestHeaders.load(directory + "/fifo") }
        #expect(throws: RequestHeaders.Failure(description: "cannot open \(directory)/none: No such file or directory")) { try RequestHeaders.load(directory + "/none") }
    }

    /// A headers file of 64 KiB is read; one byte more is refused unread.
    @Test func aFileOf64KiBIsTheLargestRead() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/alerts.headers"
        for (size, read) in [(64 << 10, true), ((64 << 10) + 1, false)] {
            let line = "A: " + String(repeating: "x", count: size - 4) + "\n"
            #expect(line.utf8.count == size)
            try line.write(toFile: path, atomically: false, encoding: .utf8)
            chmod(path, 0o600)
            if read {
                #expect(try RequestHeaders.load(path).names == ["A"])
            } else {
                #expect(throws: RequestHeaders.Failure(description: "\(path) is larger than 65536 bytes")) { try RequestHeaders.load(path) }
            }
        }
    }

    /// libcurl sends custom headers other than Authorization to wherever a redirect leads: a
    /// keyed request follows none that leaves the upstream's address and port; an unkeyed one
    /// keeps issue 10's policy.
    @Test func aKeyedRequestIsNotRedirectedElsewhere() throws {
        let upstream = try Upstream.shared()
        let service = try RedirectPolicyTests.LocalService()
        let elsewhere = "http://127.0.0.1:\(service.port)/x".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let keyed = HTTPOptions(version: "test", timeoutMilliseconds: 5_000, headers: try parse("DB-Api-Key: 0123456789abcdef\n"))
        let refused = HTTPSource(url: upstream.url("/redirect?to=\(elsewhere)&n=1"), options: keyed).fetch(validators: nil)
        guard case .failure(let failure) = refused else { Issue.record("followed: \(refused)"); return }
        #expect(failure.message == "redirect refused: it leads to another server, and the request carries the headers file's keys")
        let within = HTTPSource(url: upstream.url("/redirect?to=/echo-headers&n=2"), options: keyed).fetch(validators: nil)
        guard case .success(.body(let body, _, _, _, _)) = within else { Issue.record("\(within)"); return }
        #expect(String(decoding: body, as: UTF8.self).contains(#""db-api-key": "0123456789abcdef""#))
    }

    @Test func retryAfterInSecondsCappedAtAnHour() {
        let now: () -> Int64 = { 784_111_777 }  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(RetryAfter.seconds("120", responseDate: nil, now: now) == 120)
        #expect(RetryAfter.seconds(" 3600 ", responseDate: nil, now: now) == 3600)
        #expect(RetryAfter.seconds("86400", responseDate: nil, now: now) == 3600)
        #expect(RetryAfter.seconds("99999999999999999999999", responseDate: nil, now: now) == 3600)
        #expect(RetryAfter.seconds("-5", responseDate: nil, now: now) == nil)
        #expect(RetryAfter.seconds("soon", responseDate: nil, now: now) == nil)
        #expect(RetryAfter.seconds("", responseDate: nil, now: now) == nil)
    }

    /// RFC 9110's three date forms, counted from the response's Date when it has one.
    @Test func retryAfterAsAnHTTPDate() {
        let now: () -> Int64 = { 784_111_777 }
        #expect(RetryAfter.httpDate("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(RetryAfter.httpDate("Sunday, 06-Nov-94 08:49:37 GMT") == 784_111_777)
        #expect(RetryAfter.httpDate("Sun Nov  6 08:49:37 1994") == 784_111_777)
        #expect(RetryAfter.httpDate("Sun, 31 Feb 1994 08:49:37 GMT") == nil)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:51:37 GMT", responseDate: nil, now: now) == 120)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:51:37 GMT", responseDate: "Sun, 06 Nov 1994 08:50:37 GMT", now: now) == 60)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:40:00 GMT", responseDate: nil, now: now) == 0)
        #expect(RetryAfter.seconds("Mon, 07 Nov 1994 08:49:37 GMT", responseDate: nil, now: now) == 3600)
        // RFC 850's two-digit years: 70 to 99 are the 1900s, 00 to 69 the 2000s.
        #expect(RetryAfter.httpDate("Thursday, 01-Jan-70 00:00:00 GMT") == 0)
        #expect(RetryAfter.httpDate("Tuesday, 31-Dec-69 23:59:59 GMT") == 3_155_759_999)
        #expect(RetryAfter.applies(to: 429) && RetryAfter.applies(to: 503) && !RetryAfter.applies(to: 500))
    }
}

/// The refresher under an upstream's `Retry-After`, and `401` named as a refused key: a real
/// refresher thread, libcurl and the local upstream.
@Suite struct RetryAfterRefresherTests {
    func key(_ name: String = #function) -> String { "\(name.prefix { $0 != "(" })-\(getpid())-\(UInt32.random(in: 0...UInt32.max))" }

    @Test func aRefreshInsideRetryAfterIsAnsweredAtOnceWithTheNextAttempt() throws {
        let upstream = try Upstream.shared()
        let key = key()
        try upstream.set(key: key, status: 429, body: "slow down", headers: ["Retry-After": "3600"])
        let store = GenerationTests.store()
        let rounds = DispatchSemaphore(value: 0)
        let source = HTTPSource(url: upstream.url("/dyn/\(key)"), options: HTTPOptions(version: "test", timeoutMilliseconds: 5_000))
        let refresher = Refresher(cache: .alerts, source: source, interval: 1, store: store, spacingMilliseconds: 0, onRefreshed: { rounds.signal() })
        let thread = refresher.start()
        defer {
            refresher.stop()
            _ = thread.join(milliseconds: 60_000)
        }
        #expect(rounds.wait(timeout: .now() + 60) == .success, "the start's round")
        let limited = store.status(.alerts)
        #expect(limited.lastError == "HTTP 429 Too Many Requests, retry after 3600 s" && limited.lastHTTPStatus == 429)
        let attempted = try #require(limited.lastAttemptAt), next = try #require(limited.nextRefreshAt)
        #expect(next.secondsSince1970 - attempted.secondsSince1970 >= 3600, "the next attempt is the upstream's hour away, not the 1 s interval")
        let hits = try upstream.hits(key: key)
        let answered = DispatchSemaphore(value: 0)
        let answer = Locked<CacheStatus?>(nil)
        refresher.refreshNow { status in answer.withLock { $0 = status }; answered.signal() }
        #expect(answered.wait(timeout: .now() + 60) == .success)
        #expect(answer.withLock { $0?.nextRefreshAt } == next && answer.withLock { $0?.refreshesFailed } == 1)
        #expect(try upstream.hits(key: key) == hits, "the refresh reached the upstream inside its Retry-After")
    }

    @Test func a401Or403IsARefusedKey() throws {
        let upstream = try Upstream.shared()
        for status in [401, 403] {
            let key = key()
            try upstream.set(key: key, status: status, body: "{}")
            let fetched = HTTPSource(url: upstream.url("/dyn/\(key)"), options: HTTPOptions(version: "test")).fetch(validators: nil)
            guard case .failure(let failure) = fetched else { Issue.record("\(fetched)"); continue }
            #expect(failure.message == "the upstream refused the credentials (HTTP \(status))" && failure.httpStatus == status)
        }
        let key = key()
        try upstream.set(key: key, status: 503, headers: ["Retry-After": "Sun, 06 Nov 1994 08:51:37 GMT", "Date": "Sun, 06 Nov 1994 08:49:37 GMT"])
        let fetched = HTTPSource(url: upstream.url("/dyn/\(key)"), options: HTTPOptions(version: "test")).fetch(validators: nil)
        guard case .failure(let failure) = fetched else { Issue.record("\(fetched)"); return }
        #expect(failure.retryAfterSeconds == 120 && failure.message == "HTTP 503 Service Unavailable, retry after 120 s", "\(failure)")
    }
}
