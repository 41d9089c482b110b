/// Limits for one upstream fetch. Every limit is finite: a daemon that refreshes forever must not
/// be hung or bloated by one bad upstream.
public struct HTTPOptions: Sendable, Equatable {
    /// `--http-timeout`'s default (`Config.httpTimeout` reads it: the configuration sits above
    /// the sources).
    public static let defaultTimeoutMilliseconds = 10_000
    /// The connect phase gets its own, shorter budget so an unreachable host fails fast and the
    /// log says "connect" rather than spending the whole timeout in SYN retries.
    public static let defaultConnectTimeoutMilliseconds = 5_000
    /// The real feeds are well under 1 MiB; 16 MiB leaves room for growth while bounding memory.
    public static let defaultMaxBodyBytes = 16 * 1024 * 1024
    public static let defaultMaxRedirects = 5
    /// The cap for a GTFS feed zip (a URL whose path ends in `.zip`): held compressed, its tables
    /// stream through 64 KiB, so memory is the archive's size plus a small constant.
    public static let maxFeedZipBytes = 128 * 1024 * 1024

    /// Whole-request budget (connect, TLS, headers and body), enforced by libcurl in milliseconds.
    public var timeoutMilliseconds: Int
    public var connectTimeoutMilliseconds: Int
    /// Cap on the decoded body: checked against Content-Length up front and while receiving.
    /// The same cap applies to `file://` sources.
    public var maxBodyBytes: Int
    /// Redirects followed per fetch (http and https only); 0 makes any 3xx a failure.
    public var maxRedirects: Int
    public var userAgent: String
    /// Sent with every request (a keyed upstream's key); redirects then stay on the upstream's
    /// own address and port, so the key goes nowhere else.
    public var headers: RequestHeaders

    /// `userAgent` defaults to `stopsheetd/<version>`; `connectTimeoutMilliseconds` to
    /// `min(timeoutMilliseconds, 5000)`.
    public init(
        version: String,
        timeoutMilliseconds: Int = HTTPOptions.defaultTimeoutMilliseconds,
        connectTimeoutMilliseconds: Int? = nil,
        maxBodyBytes: Int = HTTPOptions.defaultMaxBodyBytes,
        maxRedirects: Int = HTTPOptions.defaultMaxRedirects,
        userAgent: String? = nil,
        headers: RequestHeaders = .none
    ) {
        self.timeoutMilliseconds = timeoutMilliseconds
        self.connectTimeoutMilliseconds =
            connectTimeoutMilliseconds ?? min(timeoutMilliseconds, HTTPOptions.defaultConnectTimeoutMilliseconds)
        self.maxBodyBytes = maxBodyBytes
        self.maxRedirects = maxRedirects
        self.userAgent = userAgent ?? "stopsheetd/\(version)"
        self.headers = headers
    }
}
