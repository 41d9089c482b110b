import Glibc

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
        FileSource.read(path, maxBytes: maxBodyBytes).map { .body($0, validators: CacheValidators(), httpStatus: nil) }
    }

    /// A local file's bytes, at most `maxBytes` of them (more is a failure, never a truncation).
    /// `regularOnly`: anything but a regular file is a failure, and opening never blocks (a FIFO
    /// with no writer would otherwise hang the open, and one with a writer every read).
    static func read(_ path: String, maxBytes: Int, regularOnly: Bool = false) -> Result<[UInt8], FetchFailure> {
        let tooLarge = FetchFailure("file \(path) is larger than \(maxBytes) bytes")
        var bytes: [UInt8] = []
        do {
            try stream(path, nonBlocking: regularOnly, opened: { (info) throws(FetchFailure) in
                let type = info.st_mode & S_IFMT
                if regularOnly, type != S_IFREG, type != S_IFDIR {
                    throw FetchFailure("\(path) is not a regular file (\(fileTypeName(type)))")
                }
                guard type == S_IFREG else { return }
                if info.st_size > maxBytes { throw tooLarge }
                bytes.reserveCapacity(Int(info.st_size))
            }) { (chunk) throws(FetchFailure) in
                // A file can grow after fstat, and pipes or devices have no size: the cap holds anyway.
                guard chunk.count <= maxBytes - bytes.count else { throw tooLarge }
                bytes.append(contentsOf: chunk)
            }
            return .success(bytes)
        } catch let failure as FetchFailure {
            return .failure(failure)
        } catch {
            preconditionFailure("only FetchFailure is thrown here")
        }
    }

    /// A local file in 64 KiB chunks: `opened` sees its status first (and may refuse it), then
    /// `chunk` each piece, so a large file (a GTFS table) passes through without being held.
    /// Failures opening or reading are `FetchFailure`s; whatever `chunk` throws passes through.
    static func stream(_ path: String, nonBlocking: Bool = false, opened: (stat) throws -> Void = { _ in },
                       _ chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        var fd: Int32
        // Non-blocking when asked: a FIFO with no writer would otherwise hang the open (and one with
        // a writer every read); a regular file reads the same either way.
        let flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | (nonBlocking ? O_NONBLOCK : 0)
        repeat { fd = open(path, flags) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw FetchFailure("cannot open \(path): \(errorText(errno))") }
        defer { close(fd) }

        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FetchFailure("cannot stat \(path): \(errorText(errno))") }
        // open(2) succeeds on a directory; say so plainly instead of waiting for read's EISDIR.
        if info.st_mode & S_IFMT == S_IFDIR { throw FetchFailure("cannot read \(path): \(errorText(EISDIR))") }
        try opened(info)

        let chunkSize = 64 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = Glibc.read(fd, buffer.baseAddress, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw FetchFailure("cannot read \(path): \(errorText(errno))")
            }
            if count == 0 { return }
            try chunk(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
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

private func fileTypeName(_ type: mode_t) -> String {
    switch type {
    case S_IFIFO: "a FIFO"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    default: "not a plain file"
    }
}

private func errorText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
