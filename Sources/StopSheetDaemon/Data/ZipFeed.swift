import CArchive

/// A GTFS feed zip held in memory (as fetched), read with libarchive's seekable zip reader as
/// Python's `zipfile` reads it: sizes and CRC-32s from the central directory (so entries with
/// data descriptors, as macOS and `zip` to a pipe write them, read whole), ZIP64, and stored,
/// deflate, bzip2, LZMA, xz and zstd entries. Entries are found by name and streamed out in
/// chunks, so a table of gigabytes passes through one buffer and is never held whole. libarchive
/// checks each entry's CRC-32 and sizes at its end; a cut archive, a bad CRC, an encrypted entry
/// or a method no library here reads is a failure that names the entry.
///
/// Used inside `ZipFeed.open`'s closure only, on the thread that called it (each `read` inflates
/// on a thread of its own, joined before it returns): every reader reads the caller's bytes in
/// place.
final class ZipFeed {
    struct Failure: Error, CustomStringConvertible, Equatable {
        var description: String
        init(_ description: String) { self.description = "zip archive: \(description)" }
    }

    /// One `archive_read_data`: large enough that the per-call cost vanishes, small enough for cache.
    static let chunkBytes = 256 * 1024
    /// Buffers between the inflating thread and the parser: enough that neither waits on the other.
    static let pipeBuffers = 4

    private let bytes: UnsafeRawBufferPointer
    /// The feed's files, each with its place in the order the reader meets the entries: a
    /// reader opened again reaches a file by stepping over the headers before it.
    private let files: [(name: String, place: Int)]

    /// Opens the archive in `bytes` for the duration of `body`.
    static func open<Result>(_ bytes: [UInt8], _ body: (ZipFeed) throws -> Result) throws -> Result {
        try bytes.withUnsafeBytes { raw in try body(ZipFeed(raw)) }
    }

    private init(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes = bytes
        files = try Self.reading(bytes) { archive in
            var names: [String] = []
            while let entry = try Self.next(archive) { names.append(archive_entry_pathname(entry).map { String(cString: $0) } ?? "") }
            return names.enumerated().filter { Self.isFile($0.element) }.map { (name: $0.element, place: $0.offset) }
        }
    }

    /// Whether an entry is a file of the feed, not a folder or what macOS adds beside the files
    /// (`__MACOSX/…/._stops.txt`, `.DS_Store`): Python's `zipfile` reads those too, but no
    /// table is named with a dot.
    static func isFile(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        return !name.hasSuffix("/") && parts.first != "__MACOSX" && parts.last?.hasPrefix(".") == false
    }

    /// A reader of the archive for the duration of `body`. libarchive reads memory in place, and
    /// seeks in it: the seekable zip reader starts from the central directory.
    private static func reading<Result>(_ bytes: UnsafeRawBufferPointer, _ body: (OpaquePointer) throws -> Result) throws -> Result {
        guard let archive = archive_read_new() else { throw Failure("out of memory") }
        defer { archive_read_free(archive) }
        archive_read_support_format_zip_seekable(archive)
        guard archive_read_open_memory(archive, bytes.baseAddress, bytes.count) == ARCHIVE_OK else {
            // The caller saw a zip's first signature: no end record means the archive was cut short.
            let text = errorText(archive)
            throw Failure(text == "Unrecognized archive format" ? "no end of central directory: the archive is truncated" : text)
        }
        return try body(archive)
    }

    /// The next entry, nil after the last. A warning (a name not in this locale's characters,
    /// a local header whose sizes differ from the central directory's) leaves the entry readable.
    private static func next(_ archive: OpaquePointer) throws -> OpaquePointer? {
        var entry: OpaquePointer?
        let status = archive_read_next_header(archive, &entry)
        if status == ARCHIVE_EOF { return nil }
        guard status >= ARCHIVE_WARN, let entry else { throw Failure(errorText(archive)) }
        return entry
    }

    private static func errorText(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "error \(archive_errno(archive))"
    }

    /// The file with this name, or the only one with this name inside a folder (some feeds
    /// are zipped with their folder: `google_transit/stops.txt`).
    func place(named name: String) -> Int? {
        if let exact = files.first(where: { $0.name == name }) { return exact.place }
        let nested = files.filter { $0.name.hasSuffix("/" + name) }
        return nested.count == 1 ? nested[0].place : nil
    }

    /// Streams an entry's uncompressed bytes to `chunk`, at most `chunkBytes` at a time.
    func read(_ place: Int, named name: String, _ chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        try Self.reading(bytes) { archive in
            var entry: OpaquePointer?
            for _ in 0...place { entry = try Self.next(archive) }
            guard let entry else { throw Failure("'\(name)' is missing") }
            guard archive_entry_is_encrypted(entry) == 0 else { throw Failure("'\(name)' is encrypted") }
            // Inflating runs on a thread of its own while `chunk` parses the bytes before: the
            // load then takes about as long as inflating alone. Only that thread touches
            // `archive` until it has ended (joined below).
            struct Reader: @unchecked Sendable { let archive: OpaquePointer }
            let reader = Reader(archive: archive)
            let pipe = ChunkPipe(buffers: Self.pipeBuffers, bytes: Self.chunkBytes)
            let inflater = PosixThread(name: "zip-inflate") {
                pipe.produce { buffer in
                    let count = archive_read_data(reader.archive, buffer.baseAddress, buffer.count)
                    // A damaged or cut stream, an unknown method, and at the entry's end a
                    // CRC-32 or a size other than the central directory's, fail here.
                    guard count >= 0 else { throw Failure("'\(name)' cannot be read: \(Self.errorText(reader.archive))") }
                    return count
                }
            }
            defer {
                pipe.cancel()
                // The inflater ends at its next buffer (one takes milliseconds), and `archive`
                // is freed only after it has.
                while !inflater.join(milliseconds: 60_000) {}
            }
            try pipe.consume(chunk)
        }
    }
}

extension ZipFeed: GTFSTables {
    func has(_ name: String) -> Bool { place(named: name) != nil }

    func stream(_ name: String, _ chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let place = place(named: name) else { throw FetchFailure("GTFS feed has no \(name)") }
        try read(place, named: name, chunk)
    }
}
