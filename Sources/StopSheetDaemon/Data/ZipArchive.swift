import CZlib

/// A zip archive held in memory (a GTFS feed as fetched), read through its central directory:
/// entries are found by name and streamed out in chunks, inflated by zlib, so a table of hundreds
/// of megabytes (CTA's `stop_times.txt`) passes through a 64 KiB buffer and is never held whole.
///
/// Every offset and size from the archive is checked against the bytes there are; each entry's
/// CRC-32 and size are checked as it streams. Stored and deflated entries are read; ZIP64,
/// encryption and other methods are refused with a failure that says so. Immutable once built;
/// any thread may read it.
struct ZipArchive: Sendable {
    struct Failure: Error, CustomStringConvertible, Equatable {
        var description: String
        init(_ description: String) { self.description = "zip archive: \(description)" }
    }

    struct Entry: Sendable, Equatable {
        var name: String
        var method: UInt16
        var flags: UInt16
        var crc32: UInt32
        var compressedSize: Int
        var uncompressedSize: Int
        var localHeaderOffset: Int
    }

    static let chunkBytes = 64 * 1024
    private static let endOfCentralDirectory: UInt32 = 0x0605_4B50
    private static let centralFileHeader: UInt32 = 0x0201_4B50
    private static let localFileHeader: UInt32 = 0x0403_4B50

    let bytes: [UInt8]
    let entries: [Entry]

    init(_ bytes: [UInt8]) throws(Failure) {
        self.bytes = bytes
        // The end record is the last 22 bytes, unless a comment (at most 65,535 bytes) follows it.
        guard bytes.count >= 22 else { throw Failure("shorter than an end-of-central-directory record") }
        let earliest = max(0, bytes.count - 22 - 65_535)
        var end = bytes.count - 22
        while end >= earliest, Self.uint32(bytes, end) != Self.endOfCentralDirectory { end -= 1 }
        guard end >= earliest else { throw Failure("no end-of-central-directory record") }
        let count = Int(Self.uint16(bytes, end + 10))
        let size = Int(Self.uint32(bytes, end + 12))
        let offset = Int(Self.uint32(bytes, end + 16))
        guard count != 0xFFFF, size != 0xFFFF_FFFF, offset != 0xFFFF_FFFF else { throw Failure("ZIP64 archives are not supported") }
        guard offset <= end, size <= end - offset else { throw Failure("central directory lies outside the archive") }

        var entries: [Entry] = []
        var position = offset
        for index in 0..<count {
            guard end - position >= 46, Self.uint32(bytes, position) == Self.centralFileHeader else {
                throw Failure("central directory entry \(index) is damaged")
            }
            let nameLength = Int(Self.uint16(bytes, position + 28))
            let extraLength = Int(Self.uint16(bytes, position + 30))
            let commentLength = Int(Self.uint16(bytes, position + 32))
            let next = position + 46 + nameLength + extraLength + commentLength
            guard next <= end else { throw Failure("central directory entry \(index) runs past the directory") }
            let entry = Entry(
                name: String(decoding: bytes[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self),
                method: Self.uint16(bytes, position + 10),
                flags: Self.uint16(bytes, position + 8),
                crc32: Self.uint32(bytes, position + 16),
                compressedSize: Int(Self.uint32(bytes, position + 20)),
                uncompressedSize: Int(Self.uint32(bytes, position + 24)),
                localHeaderOffset: Int(Self.uint32(bytes, position + 42)))
            guard entry.compressedSize != 0xFFFF_FFFF, entry.uncompressedSize != 0xFFFF_FFFF, entry.localHeaderOffset != 0xFFFF_FFFF else {
                throw Failure("ZIP64 entry '\(entry.name)' is not supported")
            }
            entries.append(entry)
            position = next
        }
        self.entries = entries
    }

    /// The entry with this name, or the only one with this name inside a folder (some feeds
    /// are zipped with their folder: `google_transit/stops.txt`).
    func entry(named name: String) -> Entry? {
        if let exact = entries.first(where: { $0.name == name }) { return exact }
        let nested = entries.filter { $0.name.hasSuffix("/" + name) }
        return nested.count == 1 ? nested[0] : nil
    }

    /// Streams an entry's uncompressed bytes to `chunk`, at most `chunkBytes` at a time.
    func read(_ entry: Entry, _ chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard entry.flags & 1 == 0 else { throw Failure("'\(entry.name)' is encrypted") }
        let start = try dataOffset(entry)
        var crc = crc32(0, nil, 0)
        var produced = 0
        func deliver(_ part: UnsafeRawBufferPointer) throws {
            produced += part.count
            guard produced <= entry.uncompressedSize else { throw Failure("'\(entry.name)' inflates past its stated size") }
            crc = crc32(crc, part.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(part.count))
            try chunk(part)
        }
        switch entry.method {
        case 0:
            guard entry.compressedSize == entry.uncompressedSize else { throw Failure("stored entry '\(entry.name)' has two sizes") }
            try bytes.withUnsafeBytes { all in
                var offset = start
                while offset < start + entry.compressedSize {
                    let count = min(Self.chunkBytes, start + entry.compressedSize - offset)
                    try deliver(UnsafeRawBufferPointer(rebasing: all[offset..<(offset + count)]))
                    offset += count
                }
            }
        case 8:
            try inflate(entry, from: start, deliver)
        default:
            throw Failure("'\(entry.name)' uses compression method \(entry.method); only stored and deflated are read")
        }
        guard produced == entry.uncompressedSize else { throw Failure("'\(entry.name)' is \(produced) bytes, its header says \(entry.uncompressedSize)") }
        guard UInt32(crc) == entry.crc32 else { throw Failure("'\(entry.name)' fails its CRC-32 check") }
    }

    /// An entry's whole content, for the small tables; more than `maxBytes` is a failure.
    func contents(_ entry: Entry, maxBytes: Int) throws -> [UInt8] {
        guard entry.uncompressedSize <= maxBytes else { throw Failure("'\(entry.name)' is larger than \(maxBytes) bytes") }
        var out: [UInt8] = []
        out.reserveCapacity(entry.uncompressedSize)
        try read(entry) { out.append(contentsOf: $0) }
        return out
    }

    /// Where an entry's data starts: after its local header, whose name and extra field lengths
    /// may differ from the central directory's.
    private func dataOffset(_ entry: Entry) throws(Failure) -> Int {
        let header = entry.localHeaderOffset
        guard header <= bytes.count - 30, Self.uint32(bytes, header) == Self.localFileHeader else {
            throw Failure("local header of '\(entry.name)' is missing")
        }
        let start = header + 30 + Int(Self.uint16(bytes, header + 26)) + Int(Self.uint16(bytes, header + 28))
        guard start <= bytes.count, entry.compressedSize <= bytes.count - start else {
            throw Failure("'\(entry.name)' runs past the end of the archive")
        }
        return start
    }

    private func inflate(_ entry: Entry, from start: Int, _ deliver: (UnsafeRawBufferPointer) throws -> Void) throws {
        var stream = z_stream()
        guard czlib_inflate_init_raw(&stream) == Z_OK else { throw Failure("zlib cannot start inflating") }
        defer { inflateEnd(&stream) }
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkBytes, alignment: 1)
        defer { output.deallocate() }
        try bytes.withUnsafeBytes { all in
            // zlib takes a mutable pointer but never writes through next_in.
            stream.next_in = UnsafeMutablePointer(mutating: all.baseAddress!.advanced(by: start).assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(entry.compressedSize)
            while true {
                stream.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(Self.chunkBytes)
                let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                let count = Self.chunkBytes - Int(stream.avail_out)
                if count > 0 { try deliver(UnsafeRawBufferPointer(rebasing: output[..<count])) }
                if status == Z_STREAM_END { return }
                guard status == Z_OK else {
                    // Z_BUF_ERROR with no input left: the deflate stream was cut short.
                    throw Failure("'\(entry.name)' does not inflate (\(status == Z_BUF_ERROR ? "truncated" : "zlib error \(status)"))")
                }
            }
        }
    }

    private static func uint16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    private static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
}
