@testable import StopSheetDaemon
import Testing

/// `Transfer`, what libcurl's callbacks write into during one fetch, fed directly: the header
/// lines, body chunks and server addresses of responses no local upstream sends (an HTTP/2 status
/// line, a header name in odd case, a redirect to `::1` or another host).
@Suite struct HTTPTransferTests {
    func transfer(maxBodyBytes: Int = 10, keyed: Bool = false) -> Transfer {
        let transfer = Transfer()
        transfer.begin(maxBodyBytes: maxBodyBytes, keyed: keyed, stop: StopFlag())
        return transfer
    }

    /// Feeds a header line; true when libcurl is told to go on (the whole line taken).
    @discardableResult
    func header(_ transfer: Transfer, _ line: String) -> Bool {
        let bytes = Array(line.utf8)
        return bytes.withUnsafeBytes { transfer.receiveHeader($0) } == bytes.count
    }

    /// Feeds a body chunk; true when libcurl is told to go on.
    @discardableResult
    func body(_ transfer: Transfer, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { transfer.receiveBody($0) } == bytes.count
    }

    @Test func theStatusLineGivesTheStatusAndItsReason() {
        let one = transfer()
        #expect(header(one, "HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(one.status == 503 && one.reason == "Service Unavailable")
        let two = transfer()
        #expect(header(two, "HTTP/2 304\r\n"))
        #expect(two.status == 304 && two.reason == "")
        let bare = transfer()
        header(bare, "HTTP/1.1 200 \r\n")
        #expect(bare.status == 200 && bare.reason == "")
        let broken = transfer()
        header(broken, "HTTP/1.1\r\n")
        #expect(broken.status == 0)
        // Spaces doubled, and blanks of either kind around the reason, are no part of it.
        let loose = transfer()
        header(loose, "HTTP/1.1  404  \tNot Found \t\r\n")
        #expect(loose.status == 404 && loose.reason == "Not Found", "\(loose.status) '\(loose.reason)'")
    }

    /// Names in any case, values trimmed of spaces and tabs at both ends, CR and LF dropped; a
    /// name that only starts like a known one, or a line without a colon, sets nothing.
    @Test func headersAreReadByNameInAnyCase() {
        let transfer = transfer()
        header(transfer, "HTTP/1.1 200 OK\r\n")
        #expect(header(transfer, "eTaG: \t\"v1\" \t\r\n"))
        #expect(header(transfer, "LAST-modified:Wed, 21 Oct 2015 07:28:00 GMT\n"))
        #expect(header(transfer, "Retry-After:\t120\r\n"))
        #expect(header(transfer, "DATE: Sun, 06 Nov 1994 08:49:37 GMT \r\n"))
        #expect(header(transfer, "ETags: other\r\n") && header(transfer, "Tag: other\r\n") && header(transfer, "etag\r\n"))
        #expect(header(transfer, "\r\n"))
        #expect(transfer.etag == "\"v1\"")
        #expect(transfer.lastModified == "Wed, 21 Oct 2015 07:28:00 GMT")
        #expect(transfer.retryAfter == "120")
        #expect(transfer.date == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(transfer.status == 200)
    }

    /// Retry-After and Date are kept to their first 64 bytes: no upstream makes the daemon hold more.
    @Test func retryAfterAndDateAreCut() {
        let transfer = transfer()
        header(transfer, "HTTP/1.1 503 Service Unavailable\r\n")
        header(transfer, "Retry-After: " + String(repeating: "9", count: 100) + "\r\n")
        header(transfer, "Date: " + String(repeating: "d", count: 65) + "\r\n")
        #expect(transfer.retryAfter == String(repeating: "9", count: 64))
        #expect(transfer.date == String(repeating: "d", count: 64))
    }

    /// Each response of a redirect chain starts afresh: the last one's headers describe the body.
    @Test func aNewStatusLineForgetsTheResponseBefore() {
        let transfer = transfer()
        header(transfer, "HTTP/1.1 302 Found\r\n")
        header(transfer, "ETag: \"old\"\r\n")
        header(transfer, "Last-Modified: then\r\n")
        header(transfer, "Retry-After: 5\r\n")
        header(transfer, "Date: then\r\n")
        header(transfer, "HTTP/2 200\r\n")
        #expect(transfer.status == 200 && transfer.reason == "")
        #expect(transfer.etag == nil && transfer.lastModified == nil && transfer.retryAfter == nil && transfer.date == nil)
    }

    /// A 2xx's Content-Length over the cap ends the transfer before a byte of the body; at the
    /// cap it goes on. Another status's length is no body the daemon keeps: not judged.
    @Test func contentLengthIsJudgedAgainstTheCapFor2xxOnly() {
        for (status, length, goesOn) in [(200, 10, true), (200, 11, false), (299, 11, false), (204, 0, true),
                                          (300, 11, true), (199, 11, true), (404, 1_000, true)] {
            let transfer = transfer(maxBodyBytes: 10)
            header(transfer, "HTTP/1.1 \(status) X\r\n")
            #expect(header(transfer, "Content-Length: \(length)\r\n") == goesOn, "\(status) \(length)")
            #expect(transfer.tooLarge == !goesOn, "\(status) \(length)")
        }
    }

    /// A 2xx body is kept up to the cap, across chunks; the chunk that would pass it ends the
    /// transfer. Any other status's body is refused at its first byte.
    @Test func theBodyIsKeptUpToTheCapFor2xxOnly() {
        let transfer = transfer(maxBodyBytes: 10)
        header(transfer, "HTTP/1.1 200 OK\r\n")
        #expect(body(transfer, Array("abcd".utf8)) && body(transfer, Array("efghij".utf8)))
        #expect(!transfer.tooLarge)
        #expect(!body(transfer, [0x6B]) && transfer.tooLarge)
        #expect(transfer.takeBody() == Array("abcdefghij".utf8))
        #expect(transfer.takeBody() == [])

        let over = self.transfer(maxBodyBytes: 10)
        header(over, "HTTP/1.1 200 OK\r\n")
        #expect(body(over, Array("abcdef".utf8)) && !body(over, Array("ghijk".utf8)) && over.tooLarge)

        for status in [199, 300, 304, 404, 503] {
            let refused = self.transfer()
            header(refused, "HTTP/1.1 \(status) X\r\n")
            #expect(!body(refused, [0x61]) && !refused.tooLarge, "\(status)")
            #expect(refused.takeBody() == [], "\(status)")
        }
    }

    /// The first request fixes the origin; a redirect may go to another host, never to another
    /// port of the origin's address, nor to a loopback address other than the origin itself.
    @Test func theRedirectPolicy() {
        let transfer = transfer()
        #expect(transfer.admitRequest(to: "192.0.2.1", port: 80))
        #expect(transfer.admitRequest(to: "192.0.2.1", port: 80) && transfer.redirectRefusal == nil)
        #expect(transfer.admitRequest(to: "198.51.100.7", port: 443) && transfer.redirectRefusal == nil)
        #expect(!transfer.admitRequest(to: "192.0.2.1", port: 8080))
        #expect(transfer.redirectRefusal == "it leads to another port (8080) of the upstream's address")
        for loopback in ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1", "::FFFF:127.0.0.2"] {
            let fresh = self.transfer()
            #expect(fresh.admitRequest(to: "192.0.2.1", port: 80))
            #expect(!fresh.admitRequest(to: loopback, port: 80), "\(loopback)")
            #expect(fresh.redirectRefusal == "it leads to a loopback address", "\(loopback)")
        }
        for elsewhere in ["128.0.0.1", "::2", "::ffff:10.0.0.1", "2001:db8::127"] {
            let fresh = self.transfer()
            #expect(fresh.admitRequest(to: "192.0.2.1", port: 80))
            #expect(fresh.admitRequest(to: elsewhere, port: 80) && fresh.redirectRefusal == nil, "\(elsewhere)")
        }
        // A loopback origin may be redirected to itself.
        let local = self.transfer()
        #expect(local.admitRequest(to: "127.0.0.1", port: 8080) && local.admitRequest(to: "127.0.0.1", port: 8080))
        #expect(local.redirectRefusal == nil)
    }

    /// A request with the headers file's keys stays on its server; a new fetch starts a new chain.
    @Test func aKeyedRequestStaysOnItsServer() {
        let transfer = transfer(keyed: true)
        #expect(transfer.admitRequest(to: "192.0.2.1", port: 443) && transfer.admitRequest(to: "192.0.2.1", port: 443))
        #expect(!transfer.admitRequest(to: "198.51.100.7", port: 443))
        #expect(transfer.redirectRefusal == "it leads to another server, and the request carries the headers file's keys")
        transfer.begin(maxBodyBytes: 10, keyed: false, stop: StopFlag())
        #expect(transfer.redirectRefusal == nil)
        #expect(transfer.admitRequest(to: "198.51.100.7", port: 443) && transfer.admitRequest(to: "192.0.2.1", port: 443))
    }

    /// A timeout names the budget that ran out: connecting, the shorter of the connect and the
    /// whole timeout; connected, the whole one and the bytes that had arrived. A 0 is 1 ms, as set.
    @Test func aTimeoutNamesTheBudgetThatRanOut() {
        func text(connected: Bool, _ timeout: Int, _ connect: Int) -> String {
            HTTPSource.timeoutText(connected: connected, received: 7,
                                   options: HTTPOptions(version: "test", timeoutMilliseconds: timeout, connectTimeoutMilliseconds: connect))
        }
        #expect(text(connected: false, 5_000, 300) == "timed out after 300 ms connecting to the upstream")
        #expect(text(connected: false, 200, 300) == "timed out after 200 ms connecting to the upstream")
        #expect(text(connected: false, 5_000, 0) == "timed out after 1 ms connecting to the upstream")
        #expect(text(connected: false, 0, 300) == "timed out after 1 ms connecting to the upstream")
        #expect(text(connected: true, 5_000, 300) == "timed out after 5000 ms (7 bytes received)")
        #expect(text(connected: true, 0, 300) == "timed out after 1 ms (7 bytes received)")
    }
}
