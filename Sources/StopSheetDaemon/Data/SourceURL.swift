/// Picks the source for a configured URL by its scheme (case-insensitive, as RFC 3986 says).
/// Only the shape is checked here; whether the host answers is the first fetch's business, so
/// the daemon starts and reports the failure in `health` rather than refusing to run.
public func makeSource(url: String, options: HTTPOptions) throws(FetchFailure) -> any Source {
    guard let colon = url.firstIndex(of: ":"), isScheme(url[..<colon]) else {
        throw FetchFailure("invalid URL '\(url)' (expected http://, https:// or file:///absolute/path)")
    }
    let scheme = url[..<colon]
    switch scheme.lowercased() {
    case "http", "https":
        let rest = url[url.index(after: colon)...]
        guard rest.hasPrefix("//"), let first = rest.dropFirst(2).first, first != "/", first != "?", first != "#" else {
            throw FetchFailure("invalid URL '\(url)' (no host; expected \(scheme.lowercased())://host/path)")
        }
        return HTTPSource(url: url, options: options)
    case "file":
        return try FileSource(url: url, maxBodyBytes: options.maxBodyBytes)
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
