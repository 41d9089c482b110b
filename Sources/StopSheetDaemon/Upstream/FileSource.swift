import Posix

/// A `file://` upstream: `file:///abs/path` (or `file://localhost/abs/path`, or `file:/abs/path`),
/// percent-decoded. Handy for dev boxes and tests; holds the same size cap as HTTP.
///
/// Always returns the whole file with empty validators and `httpStatus: nil`: re-reading a local
/// file costs microseconds, and an mtime validator would only add a way to miss an edit (`cp -p`,
/// `rsync -t` and `touch -r` all keep an old mtime on new content).
///
/// Threads: an immutable value; its refresher's thread fetches from it.
public struct FileSource: Source {
    public let url: String
    /// The decoded absolute path the URL names.
    public let path: String
    public let maxBodyBytes: Int

    public init(url: String, maxBodyBytes: Int = HTTPOptions.defaultMaxBodyBytes) throws(FetchFailure) {
        self.url = url
        self.path = try FileSource.path(of: url)
        self.maxBodyBytes = maxBodyBytes
    }

    public func fetch(validators: CacheValidators?, stop: StopFlag) -> Result<Fetched, FetchFailure> {
        FileSource.fetched(path, maxBytes: maxBodyBytes)
    }

    /// The whole file at `path` as a fetch's body, with empty validators.
    static func fetched(_ path: String, maxBytes: Int) -> Result<Fetched, FetchFailure> {
        LocalFile.read(path, maxBytes: maxBytes).map { .body($0, validators: CacheValidators(), httpStatus: nil) }.mapError { FetchFailure($0.message) }
    }

    static func path(of url: String) throws(FetchFailure) -> String {
        let utf8 = Array(url.utf8)
        guard utf8.count >= 5, utf8[..<5].map({ $0 | 0x20 }) == Array("file:".utf8) else {
            throw FetchFailure("not a file URL: '\(redactedURL(url))'")
        }
        var rest = utf8[5...]
        if rest.starts(with: "//".utf8) {
            rest = rest.dropFirst(2)
            let slash = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            let host = String(decoding: rest[..<slash], as: UTF8.self)
            // A remote host would mean SMB/NFS semantics we do not have; "file://data/x.json" is
            // also the usual typo for a relative path, which the hint covers.
            guard host.isEmpty || host.lowercased() == "localhost" else {
                throw FetchFailure("file URL host '\(host)' is not local (use file:///absolute/path): '\(redactedURL(url))'")
            }
            rest = rest[slash...]
        }
        guard rest.first == UInt8(ascii: "/") else {
            throw FetchFailure("file URL path must be absolute (use file:///absolute/path): '\(redactedURL(url))'")
        }
        // '?' and '#' start a query or fragment in a URL; a path holding them must spell %3F / %23.
        guard !rest.contains(UInt8(ascii: "?")), !rest.contains(UInt8(ascii: "#")) else {
            throw FetchFailure("file URL must not have a query or fragment (escape '?' as %3F, '#' as %23): '\(redactedURL(url))'")
        }

        var decoded: [UInt8] = []
        decoded.reserveCapacity(rest.count)
        var index = rest.startIndex
        while index < rest.endIndex {
            let byte = rest[index]
            if byte == UInt8(ascii: "%") {
                guard rest.endIndex - index >= 3,
                      let high = hexValue(rest[index + 1]), let low = hexValue(rest[index + 2])
                else {
                    throw FetchFailure("bad percent escape in file URL: '\(redactedURL(url))'")
                }
                let value = high << 4 | low
                // A NUL would silently cut the path short at the C boundary.
                guard value != 0 else { throw FetchFailure("file URL path contains %00: '\(redactedURL(url))'") }
                decoded.append(value)
                index += 3
            } else {
                decoded.append(byte)
                index += 1
            }
        }
        // open(2) gets the String's UTF-8; bytes that are not UTF-8 could not round-trip.
        guard let path = String(validating: decoded, as: UTF8.self) else {
            throw FetchFailure("file URL path is not UTF-8: '\(redactedURL(url))'")
        }
        return path
    }
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}
