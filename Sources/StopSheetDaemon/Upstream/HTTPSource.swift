import CCurl
import Glibc

/// An `http://` or `https://` upstream, fetched with libcurl (not URLSession, whose Linux
/// implementation rounds timeouts to whole seconds and leaked memory per request when measured).
///
/// One curl easy handle per source, reused for every fetch so keep-alive connections, TLS sessions
/// and the DNS cache survive between refreshes. The handle is not thread-safe, so a mutex guards
/// it; concurrent `fetch` calls on one source simply queue (the refresher makes one at a time).
///
/// `FetchFailure.httpStatus` is set when the upstream's answer itself is the problem (non-2xx,
/// a body over the cap, too many redirects); transport failures (refused, reset, truncated,
/// timed out) leave it nil.
public final class HTTPSource: Source {
    /// The URL as shown (credentials redacted); `requestURL` is what is fetched.
    public let url: String
    private let requestURL: String
    public let options: HTTPOptions
    private let transfer = Locked(Transfer())

    public init(url: String, options: HTTPOptions) {
        self.url = redactedURL(url)
        requestURL = url
        self.options = options
    }

    public func fetch(validators: CacheValidators?, stop: StopFlag) -> Result<Fetched, FetchFailure> {
        guard curlGlobalInitResult == CURLE_OK.rawValue else {
            return .failure(FetchFailure("libcurl global initialisation failed: \(curlText(CURLcode(rawValue: curlGlobalInitResult)))"))
        }
        return transfer.withLock { transfer in
            defer { transfer.finish() }
            return perform(transfer, validators: validators, stop: stop)
        }
    }

    private func perform(_ transfer: Transfer, validators: CacheValidators?, stop: StopFlag) -> Result<Fetched, FetchFailure> {
        if transfer.handle == nil { transfer.handle = curl_easy_init() }
        guard let handle = transfer.handle else {
            return .failure(FetchFailure("cannot create a libcurl handle"))
        }
        // Reset rather than patch: no option from an earlier fetch (a stale If-None-Match) can
        // leak into this one, and reset keeps the connection, TLS session and DNS caches.
        curl_easy_reset(handle)
        transfer.begin(maxBodyBytes: options.maxBodyBytes, keyed: !options.headers.isEmpty, stop: stop)

        var requestHeaders: UnsafeMutablePointer<curl_slist>? = nil
        defer { curl_slist_free_all(requestHeaders) }
        for (name, value) in [("If-None-Match", validators?.etag), ("If-Modified-Since", validators?.lastModified)] {
            // A validator is echoed from an upstream header; never let one smuggle in a header line.
            // (Bytes, not Characters: "\r\n" is one Character, equal to neither "\r" nor "\n".)
            guard let value, !value.isEmpty, !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else { continue }
            guard let list = curl_slist_append(requestHeaders, "\(name): \(value)") else {
                return .failure(FetchFailure("out of memory building request headers"))
            }
            requestHeaders = list
        }
        for line in options.headers.requestLines {
            guard let list = curl_slist_append(requestHeaders, line) else {
                return .failure(FetchFailure("out of memory building request headers"))
            }
            requestHeaders = list
        }

        let context = Unmanaged.passUnretained(transfer).toOpaque()
        let settings: [(String, CURLcode)] = [
            ("URL", ccurl_setopt_string(handle, CURLOPT_URL, requestURL)),
            // Without this libcurl uses SIGALRM for DNS timeouts, which is unsafe with threads.
            ("NOSIGNAL", ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)),
            // 0 means "no timeout" to libcurl; a misconfigured 0 must not mean "hang forever".
            ("TIMEOUT_MS", ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, max(1, options.timeoutMilliseconds))),
            ("CONNECTTIMEOUT_MS", ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, max(1, options.connectTimeoutMilliseconds))),
            ("FOLLOWLOCATION", ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, options.maxRedirects > 0 ? 1 : 0)),
            ("MAXREDIRS", ccurl_setopt_long(handle, CURLOPT_MAXREDIRS, max(0, options.maxRedirects))),
            ("PROTOCOLS", ccurl_limit_protocols_to_http(handle)),
            // "" offers every encoding this libcurl can decode; the write callback sees decoded bytes.
            ("ACCEPT_ENCODING", ccurl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")),
            ("USERAGENT", ccurl_setopt_string(handle, CURLOPT_USERAGENT, options.userAgent)),
            ("HTTPHEADER", ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, requestHeaders)),
            ("ERRORBUFFER", ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, transfer.errorBuffer)),
            ("WRITEFUNCTION", ccurl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
                    .receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
            }),
            ("WRITEDATA", ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)),
            ("HEADERFUNCTION", ccurl_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
                    .receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
            }),
            ("HEADERDATA", ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)),
            // Before each request of the chain, once connected: the redirect policy.
            ("PREREQFUNCTION", ccurl_setopt_prereq_callback(handle) { context, address, _, port, _ in
                let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
                return transfer.admitRequest(to: address.map { String(cString: $0) } ?? "", port: Int(port)) ? 0 : 1
            }),
            ("PREREQDATA", ccurl_setopt_pointer(handle, CURLOPT_PREREQDATA, context)),
            // Called at least once a second, even while nothing arrives: a stop ends a fetch that
            // an upstream holds open, instead of leaving it running until `--http-timeout`.
            ("NOPROGRESS", ccurl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)),
            ("XFERINFOFUNCTION", ccurl_setopt_xferinfo_callback(handle) { context, _, _, _, _ in
                Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().stop.isRaised ? 1 : 0
            }),
            ("XFERINFODATA", ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context)),
        ]
        for (name, code) in settings where code != CURLE_OK {
            return .failure(FetchFailure("libcurl rejected CURLOPT_\(name): \(curlText(code))"))
        }

        let code = curl_easy_perform(handle)
        if code == CURLE_ABORTED_BY_CALLBACK, stop.isRaised {
            return .failure(FetchFailure("abandoned: the daemon is stopping"))
        }
        if let refusal = transfer.redirectRefusal {
            return .failure(FetchFailure("redirect refused: \(refusal)", httpStatus: transfer.status))
        }

        // The header callback saw every status line; the last one is the response that counts.
        let status = transfer.status

        if transfer.tooLarge {
            return .failure(FetchFailure("response larger than \(options.maxBodyBytes) bytes", httpStatus: status))
        }
        if code == CURLE_OK {
            if status == 304 { return .success(.notModified(httpStatus: 304)) }
            if (200..<300).contains(status) {
                return .success(.body(transfer.takeBody(),
                                      validators: CacheValidators(etag: transfer.etag, lastModified: transfer.lastModified),
                                      httpStatus: status))
            }
            return .failure(httpFailure(status, transfer))
        }
        if code == CURLE_TOO_MANY_REDIRECTS {
            return .failure(FetchFailure("too many redirects (more than \(options.maxRedirects))", httpStatus: status))
        }
        // The write callback refuses non-2xx bodies (nothing reads them), which surfaces as a
        // write error; an error status that then broke mid-body is still, first, that status.
        if status >= 400 || (status >= 300 && code == CURLE_WRITE_ERROR) {
            return .failure(httpFailure(status, transfer))
        }
        if code == CURLE_OPERATION_TIMEDOUT {
            return .failure(timeoutFailure(handle))
        }
        // libcurl's own text may quote the URL it was given: show it redacted there too.
        let text = transportText(code, errorBuffer: transfer.errorBuffer)
        return .failure(FetchFailure(requestURL == url ? text : text.split(separator: requestURL, omittingEmptySubsequences: false).joined(separator: url)))
    }

    private func httpFailure(_ status: Int, _ transfer: Transfer) -> FetchFailure {
        if status == 401 || status == 403 {
            return FetchFailure("the upstream refused the credentials (HTTP \(status))", httpStatus: status)
        }
        let phrase = transfer.reason.isEmpty ? standardReason(status) : transfer.reason
        let text = phrase.isEmpty ? "HTTP \(status)" : "HTTP \(status) \(phrase)"
        // The peer's Date is real time, so a date without one is counted from the real clock, not `--now`'s.
        guard RetryAfter.applies(to: status), let value = transfer.retryAfter,
              let seconds = RetryAfter.seconds(value, responseDate: transfer.date, now: { DaemonClock.system.now().secondsSince1970 })
        else { return FetchFailure(text, httpStatus: status) }
        return FetchFailure("\(text), retry after \(seconds) s", httpStatus: status, retryAfterSeconds: seconds)
    }

    private func timeoutFailure(_ handle: UnsafeMutableRawPointer) -> FetchFailure {
        var connectMicroseconds: curl_off_t = 0
        var received: curl_off_t = 0
        _ = ccurl_getinfo_off(handle, CURLINFO_CONNECT_TIME_T, &connectMicroseconds)
        _ = ccurl_getinfo_off(handle, CURLINFO_SIZE_DOWNLOAD_T, &received)
        return FetchFailure(Self.timeoutText(connected: connectMicroseconds != 0, received: Int64(received), options: options))
    }

    /// The words of a timeout. Not yet connected, the budget that ran out is the connect
    /// timeout, or the whole one when that is shorter (libcurl holds a connect to both), each at
    /// least 1 ms as set; connected, the whole one, with what had arrived.
    static func timeoutText(connected: Bool, received: Int64, options: HTTPOptions) -> String {
        guard connected else {
            let budget = min(max(1, options.connectTimeoutMilliseconds), max(1, options.timeoutMilliseconds))
            return "timed out after \(budget) ms connecting to the upstream"
        }
        return "timed out after \(max(1, options.timeoutMilliseconds)) ms (\(received) bytes received)"
    }
}

/// libcurl requires one `curl_global_init` before any other use. A global is initialised lazily
/// under `swift_once`, so this runs exactly once, on first fetch, whichever thread gets there.
private let curlGlobalInitResult: UInt32 = ccurl_global_init_default().rawValue

private func curlText(_ code: CURLcode) -> String {
    String(cString: curl_easy_strerror(code))
}

/// curl's error buffer usually says more ("Failed to connect to 127.0.0.1 port 9 after 0 ms:
/// Couldn't connect to server"), and often already ends with the generic text; avoid saying it twice.
private func transportText(_ code: CURLcode, errorBuffer: UnsafeMutablePointer<CChar>) -> String {
    let generic = curlText(code)
    let detail = trimmingASCIIWhitespace(String(cString: errorBuffer))
    if detail.isEmpty { return generic }
    if detail.contains(generic) { return detail }
    return "\(generic): \(detail)"
}

/// HTTP/2 has no reason phrase on the status line; these keep the message readable anyway.
private func standardReason(_ status: Int) -> String {
    switch status {
    case 300: "Multiple Choices"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 303: "See Other"
    case 307: "Temporary Redirect"
    case 308: "Permanent Redirect"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 408: "Request Timeout"
    case 410: "Gone"
    case 429: "Too Many Requests"
    case 500: "Internal Server Error"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    default: ""
    }
}

/// The curl handle plus everything its callbacks write into. Lives as long as its source and is
/// only touched under the source's mutex; the callbacks run inside `curl_easy_perform` on the
/// fetching thread, so they are covered by the same lock.
///
/// Threads: shared by whichever threads fetch, and `Sendable` by that lock alone (`Locked` asks
/// its value to be): nothing keeps the reference past `withLock`. Internal, not private, so that
/// tests feed its callbacks header lines, body chunks and addresses no local upstream can send.
final class Transfer: @unchecked Sendable {
    var handle: UnsafeMutableRawPointer?
    /// Allocated once: libcurl keeps this pointer and writes into it on failure.
    let errorBuffer: UnsafeMutablePointer<CChar>

    private(set) var tooLarge = false
    /// The first request's server address and port; redirects are judged against it.
    private var origin: (address: String, port: Int)?
    private(set) var redirectRefusal: String?
    private(set) var status = 0
    private(set) var reason = ""
    private(set) var etag: String?
    private(set) var lastModified: String?
    private(set) var retryAfter: String?
    /// The response's `Date`, which an HTTP-date `Retry-After` is counted from.
    private(set) var date: String?
    private var body: [UInt8] = []
    private var maxBodyBytes = 0
    /// The request carries configured headers (a key): no redirect may take them elsewhere.
    private var keyed = false
    /// The fetch's own: raised, the progress callback aborts the transfer.
    private(set) var stop = StopFlag()

    init() {
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        if let handle { curl_easy_cleanup(handle) }
        errorBuffer.deallocate()
    }

    func begin(maxBodyBytes: Int, keyed: Bool, stop: StopFlag) {
        self.maxBodyBytes = maxBodyBytes
        self.keyed = keyed
        self.stop = stop
        origin = nil
        redirectRefusal = nil
        errorBuffer[0] = 0
        startResponse()
    }

    /// The redirect policy, asked before every request of a fetch (the first one included): a
    /// redirect may lead to another host, but not to another port of the address it came from,
    /// nor to a loopback address unless that is the configured server's own address and port.
    /// A compromised or confused upstream must not make the daemon probe the machine's local
    /// services and serve what they answer (even as a few JSON key names in `health`).
    func admitRequest(to address: String, port: Int) -> Bool {
        guard let origin else {
            origin = (address, port)
            return true
        }
        if address == origin.address, port == origin.port { return true }
        // libcurl drops a custom Authorization on another host, but not DB-Api-Key or
        // Ocp-Apim-Subscription-Key: a keyed request stays where the key was meant to go.
        if keyed {
            redirectRefusal = "it leads to another server, and the request carries the headers file's keys"
        } else if address == origin.address {
            redirectRefusal = "it leads to another port (\(port)) of the upstream's address"
        } else if Self.isLoopback(address) {
            redirectRefusal = "it leads to a loopback address"
        } else {
            return true
        }
        return false
    }

    private static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.lowercased().hasPrefix("::ffff:127.")
    }

    /// Drops whatever a failed fetch left behind, so an idle source holds no body memory.
    func finish() {
        body = []
        etag = nil
        lastModified = nil
        retryAfter = nil
        date = nil
        reason = ""
    }

    /// Hands the body to the caller without copying; the next fetch starts a fresh array that
    /// grows only as far as that response needs.
    func takeBody() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &body)
        return taken
    }

    /// Each response in a redirect chain starts with its own status line; only the last one's
    /// headers describe the body we keep.
    private func startResponse() {
        tooLarge = false
        status = 0
        reason = ""
        etag = nil
        lastModified = nil
        retryAfter = nil
        date = nil
        body.removeAll()
    }

    /// Returning anything other than `bytes.count` makes libcurl abort with CURLE_WRITE_ERROR.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        // An error page is never used, so don't spend time or memory downloading it.
        guard (200..<300).contains(status) else { return 0 }
        guard bytes.count <= maxBodyBytes - body.count else {
            tooLarge = true
            return 0
        }
        body.append(contentsOf: bytes)
        return bytes.count
    }

    /// libcurl calls this once per header line, CRLF included, status line first.
    func receiveHeader(_ raw: UnsafeRawBufferPointer) -> Int {
        var line = raw[...]
        while let last = line.last, last == 0x0D || last == 0x0A { line = line.dropLast() }

        if line.starts(with: "HTTP/".utf8) {
            startResponse()
            parseStatusLine(line)
            return raw.count
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return raw.count }
        let name = line[..<colon]
        var value = line[(colon + 1)...]
        while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
        while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }

        if asciiCaseInsensitiveEqual(name, "etag") {
            etag = String(decoding: value, as: UTF8.self)
        } else if asciiCaseInsensitiveEqual(name, "last-modified") {
            lastModified = String(decoding: value, as: UTF8.self)
        } else if asciiCaseInsensitiveEqual(name, "retry-after") {
            retryAfter = String(decoding: value.prefix(64), as: UTF8.self)
        } else if asciiCaseInsensitiveEqual(name, "date") {
            date = String(decoding: value.prefix(64), as: UTF8.self)
        } else if asciiCaseInsensitiveEqual(name, "content-length"), (200..<300).contains(status),
                  let length = Int(String(decoding: value, as: UTF8.self))
        {
            // Refuse before reading a byte. With Content-Encoding this is the compressed size, so
            // it can only under-estimate the decoded body; the write callback still guards that.
            if length > maxBodyBytes {
                tooLarge = true
                return 0
            }
            body.reserveCapacity(length)
        }
        return raw.count
    }

    private func parseStatusLine(_ line: Slice<UnsafeRawBufferPointer>) {
        // "HTTP/1.1 503 Service Unavailable" or "HTTP/2 503"
        let parts = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2 else { return }
        status = Int(String(decoding: parts[1], as: UTF8.self)) ?? 0
        reason = parts.count == 3 ? trimmingASCIIWhitespace(String(decoding: parts[2], as: UTF8.self)) : ""
    }
}

private func asciiCaseInsensitiveEqual(_ bytes: Slice<UnsafeRawBufferPointer>, _ lowercase: StaticString) -> Bool {
    guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
    let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
    for (byte, want) in zip(bytes, expected) {
        let folded = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
        if folded != want { return false }
    }
    return true
}

private func trimmingASCIIWhitespace(_ text: String) -> String {
    let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
    var bytes = Substring(text).utf8[...]
    while let first = bytes.first, isSpace(first) { bytes = bytes.dropFirst() }
    while let last = bytes.last, isSpace(last) { bytes = bytes.dropLast() }
    return String(Substring(bytes))
}
