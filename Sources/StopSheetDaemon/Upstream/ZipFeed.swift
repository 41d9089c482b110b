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
    /// The largest dictionary an LZMA entry may ask for: liblzma allocates what the entry's own
    /// header names (up to 4 GiB) before it decodes a byte, and a 2 kB zip asked for 2 GiB (the
    /// gtfs-zip fuzz target). xz's and 7-Zip's largest preset, -9, takes 64 MiB.
    static let maxLZMADictionaryBytes = 128 << 20

    private let bytes: UnsafeRawBufferPointer
    /// The feed's files, each with its place in the order the reader meets the entries: a
    /// reader opened again reaches a file by stepping over the headers before it.
    private let files: [(name: String, place: Int)]
    /// Each LZMA entry's dictionary size, by name (`lzmaDictionaries`).
    private let lzmaDictionaries: [String: Int]

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
        lzmaDictionaries = Self.lzmaDictionaries(bytes)
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
            if let dictionary = lzmaDictionaries[name], dictionary > Self.maxLZMADictionaryBytes {
                throw Failure("'\(name)' asks for a \(dictionary >> 20) MiB LZMA dictionary, over the \(Self.maxLZMADictionaryBytes >> 20) MiB this reads")
            }
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

extension ZipFeed {
    /// The dictionary size each LZMA entry's header names (zip method 14: after the entry's local
    /// header, a 4-byte version and size, then LZMA's 5 property bytes, the dictionary size the
    /// last 4), found through the central directory (ZIP64 included) as libarchive's seekable
    /// reader finds the entries. What cannot be read is left out: libarchive reports it.
    static func lzmaDictionaries(_ bytes: UnsafeRawBufferPointer) -> [String: Int] {
        func integer(_ at: Int, _ size: Int) -> Int? {
            guard at >= 0, size <= 8, at + size <= bytes.count else { return nil }
            return (0..<size).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
        }
        let endRecord = 0x0605_4B50, central = 0x0201_4B50, local = 0x0403_4B50
        guard bytes.count >= 22,
              let end = stride(from: bytes.count - 22, through: max(0, bytes.count - 22 - 0xFFFF), by: -1).first(where: { integer($0, 4) == endRecord }),
              var count = integer(end + 10, 2), var at = integer(end + 16, 4)
        else { return [:] }
        // ZIP64: the locator just before the end record points at the ZIP64 end record, whose
        // count and offset are read whenever it is there, as libarchive reads them (not only
        // when the classic fields are full: a writer fills both with the same values).
        if integer(end - 20, 4) == 0x0706_4B50, let record = integer(end - 12, 8),
           integer(record, 4) == 0x0606_4B50, let count64 = integer(record + 32, 8), let at64 = integer(record + 48, 8),
           (0..<bytes.count).contains(count64), (0..<bytes.count).contains(at64) {
            (count, at) = (count64, at64)
        }
        var dictionaries: [String: Int] = [:]
        for _ in 0..<min(count, bytes.count / 46) {
            guard integer(at, 4) == central, let method = integer(at + 10, 2), let nameLength = integer(at + 28, 2),
                  let extraLength = integer(at + 30, 2), let commentLength = integer(at + 32, 2), var offset = integer(at + 42, 4),
                  at + 46 + nameLength <= bytes.count
            else { break }
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(at + 46)..<(at + 46 + nameLength)]), as: UTF8.self)
            if offset == 0xFFFF_FFFF {
                // The ZIP64 extra field: the sizes first where the classic fields are full.
                var field = at + 46 + nameLength
                while field + 4 <= at + 46 + nameLength + extraLength, let id = integer(field, 2), let size = integer(field + 2, 2) {
                    if id == 1 {
                        let skipped = [24, 20].filter { integer(at + $0, 4) == 0xFFFF_FFFF }.count * 8
                        offset = integer(field + 4 + skipped, 8).flatMap { (0..<bytes.count).contains($0) ? $0 : nil } ?? offset
                    }
                    field += 4 + size
                }
            }
            if method == 14, integer(offset, 4) == local, let localName = integer(offset + 26, 2), let localExtra = integer(offset + 28, 2),
               let dictionary = integer(offset + 30 + localName + localExtra + 5, 4) {
                dictionaries[name] = max(dictionaries[name] ?? 0, dictionary)
            }
            at += 46 + nameLength + extraLength + commentLength
        }
        return dictionaries
    }
}

extension ZipFeed: GTFSTables {
    func has(_ name: String) -> Bool { place(named: name) != nil }

    func stream(_ name: String, _ chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let place = place(named: name) else { throw FetchFailure("GTFS feed has no \(name)") }
        try read(place, named: name, chunk)
    }
}
