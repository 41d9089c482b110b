/// Picks the source for a configured URL by its scheme (case-insensitive, as RFC 3986 says).
/// Only the shape is checked (`checkSourceURL`); whether the host answers is the first fetch's
/// business, so the daemon starts and reports the failure in `health` rather than refusing to run.
public func makeSource(url: String, options: HTTPOptions) throws(FetchFailure) -> any Source {
    try checkSourceURL(url)
    var options = options
    // A GTFS feed zip is held compressed while its tables stream out: it gets its own cap
    // (CTA's google_transit.zip is tens of megabytes), every other body the usual one.
    if urlPathEndsInZip(url) { options.maxBodyBytes = max(options.maxBodyBytes, HTTPOptions.maxFeedZipBytes) }
    guard url.prefix(5).lowercased() == "file:" else { return HTTPSource(url: url, options: options) }
    let file = try FileSource(url: url, maxBodyBytes: options.maxBodyBytes)
    return GTFSDirectorySource.ifDirectory(file) ?? file
}

/// Whether a configured URL has a shape a source can be made of: http(s) with a host, or a local
/// file. The configuration's parse calls it, so `--check-config`, the start and a reload refuse
/// the same URLs with the same words.
public func checkSourceURL(_ url: String) throws(FetchFailure) {
    guard let colon = url.firstIndex(of: ":"), isScheme(url[..<colon]) else {
        throw FetchFailure("invalid URL '\(redactedURL(url))' (expected http://, https:// or file:///absolute/path)")
    }
    let scheme = url[..<colon]
    switch scheme.lowercased() {
    case "http", "https":
        let rest = url[url.index(after: colon)...]
        guard rest.hasPrefix("//"), let first = rest.dropFirst(2).first, first != "/", first != "?", first != "#" else {
            throw FetchFailure("invalid URL '\(redactedURL(url))' (no host; expected \(scheme.lowercased())://host/path)")
        }
    case "file":
        _ = try FileSource.path(of: url)
    default:
        throw FetchFailure("unsupported URL scheme '\(scheme)' (use http, https or file)")
    }
}

/// RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
private func isScheme(_ text: Substring) -> Bool {
    guard let first = text.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first) else {
        return false
    }
    return text.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "."
    }
}

/// A URL as it may be shown — in the journal, `health`, `STATUS=` and error texts: credentials
/// replaced by `REDACTED`. Those are the userinfo (`user:pass@`) and the value of every query
/// parameter whose name says it is one (`key`, `api_key`, `token`, `access_token`, `secret`,
/// `password`, `signature`, … any name containing key, token, secret, pass, auth or sig), as
/// CTA's GTFS-realtime feed wants `?key=`. The one place this is decided.
public func redactedURL(_ url: String) -> String {
    var text = Substring(url)
    var out = ""
    if let colon = text.firstIndex(of: ":"), text[text.index(after: colon)...].hasPrefix("//") {
        let authority = text.index(colon, offsetBy: 3)
        out += text[..<authority]
        text = text[authority...]
        let authorityEnd = text.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
        if let at = text[..<authorityEnd].lastIndex(of: "@") {
            out += "REDACTED@"
            text = text[text.index(after: at)...]
        }
    }
    guard let question = text.firstIndex(of: "?") else { return out + text }
    out += text[...question]
    let afterQuery = text[text.index(after: question)...]
    let fragmentStart = afterQuery.firstIndex(of: "#") ?? afterQuery.endIndex
    let parameters = afterQuery[..<fragmentStart].split(separator: "&", omittingEmptySubsequences: false).map { parameter -> String in
        guard let equals = parameter.firstIndex(of: "=") else { return String(parameter) }
        let name = parameter[..<equals].lowercased()
        let secret = ["key", "token", "secret", "pass", "auth", "sig"].contains { name.contains($0) }
        return secret ? "\(parameter[..<equals])=REDACTED" : String(parameter)
    }
    return out + parameters.joined(separator: "&") + afterQuery[fragmentStart...]
}

/// Whether a URL's path (before any query or fragment) ends in `.zip`, in any case.
func urlPathEndsInZip(_ url: String) -> Bool {
    let path = url.prefix { $0 != "?" && $0 != "#" }
    return path.lowercased().hasSuffix(".zip")
}
