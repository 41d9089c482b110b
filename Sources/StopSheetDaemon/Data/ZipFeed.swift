import CZip

/// A GTFS feed zip held in memory (as fetched), opened with libzip: entries are found by name and
/// streamed out in chunks, so a table of gigabytes passes through one buffer and is never held
/// whole. libzip checks every offset and size against the bytes there are, reads ZIP64, and checks
/// each entry's CRC-32 as it streams; an encrypted entry or an unknown method is a failure that
/// names the entry.
///
/// Used inside `ZipFeed.open`'s closure only, on the thread that called it (each `read` inflates
/// on a thread of its own, joined before it returns): the archive reads the caller's bytes in
/// place.
final class ZipFeed {
    struct Failure: Error, CustomStringConvertible, Equatable {
        var description: String
        init(_ description: String) { self.description = "zip archive: \(description)" }
    }

    /// One `zip_fread`: large enough that libzip's per-call cost vanishes, small enough for cache.
    static let chunkBytes = 256 * 1024
    /// Buffers between the inflating thread and the parser: enough that neither waits on the other.
    static let pipeBuffers = 4

    private let archive: OpaquePointer

    private init(_ archive: OpaquePointer) { self.archive = archive }

    /// Opens the archive in `bytes` for the duration of `body`.
    static func open<Result>(_ bytes: [UInt8], _ body: (ZipFeed) throws -> Result) throws -> Result {
        try bytes.withUnsafeBytes { raw in
            var error = zip_error_t()
            zip_error_init(&error)
            defer { zip_error_fini(&error) }
            guard let source = zip_source_buffer_create(raw.baseAddress, zip_uint64_t(raw.count), 0, &error) else {
                throw Failure(String(cString: zip_error_strerror(&error)))
            }
            guard let archive = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error) else {
                zip_source_free(source)
                throw Failure(String(cString: zip_error_strerror(&error)))
            }
            // Read-only: discarding frees the archive and its source without writing anything.
            defer { zip_discard(archive) }
            return try body(ZipFeed(archive))
        }
    }

    /// The entry with this name, or the only one with this name inside a folder (some feeds
    /// are zipped with their folder: `google_transit/stops.txt`).
    func index(named name: String) -> zip_uint64_t? {
        let exact = zip_name_locate(archive, name, 0)
        if exact >= 0 { return zip_uint64_t(exact) }
        var nested: [zip_uint64_t] = []
        for index in 0..<zip_uint64_t(max(0, zip_get_num_entries(archive, 0))) {
            guard let entry = zip_get_name(archive, index, 0), String(cString: entry).hasSuffix("/" + name) else { continue }
            nested.append(index)
        }
        return nested.count == 1 ? nested[0] : nil
    }

    /// Streams an entry's uncompressed bytes to `chunk`, at most `chunkBytes` at a time.
    func read(_ index: zip_uint64_t, named name: String, _ chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        var info = zip_stat_t()
        zip_stat_init(&info)
        guard zip_stat_index(archive, index, 0, &info) == 0 else { throw Failure("'\(name)': \(String(cString: zip_strerror(archive)))") }
        guard info.encryption_method == UInt16(ZIP_EM_NONE) else { throw Failure("'\(name)' is encrypted") }
        guard let file = zip_fopen_index(archive, index, 0) else {
            throw Failure("'\(name)' cannot be read: \(String(cString: zip_strerror(archive)))")
        }
        defer { zip_fclose(file) }
        // Inflating runs on a thread of its own while `chunk` parses the bytes before: the load
        // then takes about as long as inflating alone. Only that thread touches `file` until
        // it has ended (joined below).
        struct Entry: @unchecked Sendable { let file: OpaquePointer; let size: UInt64 }
        let entry = Entry(file: file, size: info.size)
        let pipe = ChunkPipe(buffers: Self.pipeBuffers, bytes: Self.chunkBytes)
        let inflater = PosixThread(name: "zip-inflate") {
            var produced: UInt64 = 0
            pipe.produce { buffer in
                let count = zip_fread(entry.file, buffer.baseAddress, zip_uint64_t(buffer.count))
                // A short or damaged deflate stream, or a CRC-32 that does not match, fails here.
                guard count >= 0 else { throw Failure("'\(name)' does not inflate: \(String(cString: zip_file_strerror(entry.file)))") }
                produced += UInt64(count)
                guard produced <= entry.size else { throw Failure("'\(name)' inflates past its stated size") }
                guard count > 0 || produced == entry.size else { throw Failure("'\(name)' is \(produced) bytes, its header says \(entry.size)") }
                return Int(count)
            }
        }
        defer {
            pipe.cancel()
            // The inflater ends at its next buffer (a zip_fread of one takes milliseconds), and
            // `file` is closed only after it has.
            while !inflater.join(milliseconds: 60_000) {}
        }
        try pipe.consume(chunk)
    }
}

extension ZipFeed: GTFSTables {
    func has(_ name: String) -> Bool { index(named: name) != nil }

    func stream(_ name: String, _ chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let index = index(named: name) else { throw FetchFailure("GTFS feed has no \(name)") }
        try read(index, named: name, chunk)
    }
}
