/// A CSV reader that reads exactly what Python's `csv.reader` reads with its default dialect
/// (the reader most GTFS tools match), as a push parser: bytes go in in chunks of any size,
/// records come out as soon as they end. `CSVReader.rows` reads a whole body through it; a GTFS
/// feed streams its tables through it (CTA's `stop_times.txt` has millions of rows and is never
/// held whole).
///
/// Python's reading, given a file decoded as `utf-8-sig` and opened with `newline=''`:
/// - fields are separated by commas (or the `separator` given, as Python's `delimiter`: IDFM's
///   exports use `;`); CRLF, LF and a lone CR each end a record;
/// - a quote opens a quoted field only at the field's start; inside one, commas and line breaks
///   are data and `""` is a quote; anywhere else a quote is data (`ab"c` is `ab"c`);
/// - after a closing quote, anything but a comma or a line end is data of the same field
///   (`"ab" ,` is `ab `, `"ab"c` is `abc`);
/// - a blank line is a record of no fields; the last record may lack its line break;
/// - a quote left open at the end is a field running to the end (nothing is a failure);
/// - one leading UTF-8 byte order mark is skipped.
/// Every byte that matters is ASCII, so reading bytes reads UTF-8 text as Python reads
/// characters. The one failure is a record longer than `maxRecordBytes`.
///
/// A value type, owned by whoever feeds it.
public struct CSVRecordStream {
    /// One record, valid for the duration of the callback it is passed to: its bytes are the
    /// caller's chunk itself when the record lies whole in one chunk and needs no unquoting (the
    /// common case, read without a copy), else the stream's own buffer.
    public struct Record {
        fileprivate var base = UnsafeRawBufferPointer(start: nil, count: 0)
        /// Field i is `base[starts[i]..<ends[i]]`: in place, the separators lie between fields.
        fileprivate var starts: [Int] = []
        fileprivate var ends: [Int] = []
        /// The line the record starts on (1-based; a line break inside quotes starts a line).
        public fileprivate(set) var line = 1

        /// How many fields; 0 for a blank line.
        public var count: Int { ends.count }

        public subscript(field: Int) -> String {
            String(decoding: bytes(field), as: UTF8.self)
        }

        /// The field's bytes, without making a String.
        public func bytes(_ field: Int) -> Slice<UnsafeRawBufferPointer> { base[range(field)] }

        private func range(_ field: Int) -> Range<Int> { starts[field]..<ends[field] }

        /// A blank line: no fields at all.
        public var isBlank: Bool { ends.isEmpty }
    }

    private enum State {
        /// Nothing of a record read yet.
        case recordStart
        /// After a separator.
        case fieldStart
        case unquoted, quoted
        /// After a quote inside a quoted field: its end, or the first of `""`.
        case quoteInQuoted
        /// After a CR that ended a record: an LF right after it belongs to it.
        case afterCR
    }

    public static let comma = UInt8(ascii: ",")
    private static let quote = UInt8(ascii: "\""), cr: UInt8 = 0x0D, lf: UInt8 = 0x0A

    /// Most bytes one record may hold: a body without line breaks must not grow memory unbounded.
    public let maxRecordBytes: Int
    /// The byte between fields: a comma, or another ASCII punctuation byte (`;`).
    public let separator: UInt8
    /// The highest of the bytes that end a plain run (separator, quote, CR, LF): every byte
    /// above it is data, one comparison.
    private let highestSpecial: UInt8
    private var state = State.recordStart
    private var record = Record()
    /// The bytes of a record read byte by byte (quoted, or split across chunks).
    private var storage: [UInt8] = []
    /// The line being read.
    private var line = 1
    /// The last byte read inside quotes was a CR (a CRLF there is one line break).
    private var crInQuotes = false
    /// How many bytes of a leading byte order mark have been seen; nil once past the start.
    private var byteOrderMarkSeen: Int? = 0

    public init(maxRecordBytes: Int = Int.max, separator: UInt8 = CSVRecordStream.comma) {
        precondition(separator != Self.quote && separator != Self.cr && separator != Self.lf && separator < 0x80,
                     "a separator is an ASCII byte other than a quote or a line end")
        self.maxRecordBytes = maxRecordBytes
        self.separator = separator
        self.highestSpecial = max(separator, Self.quote, Self.cr, Self.lf)
    }

    public mutating func consume(_ bytes: [UInt8], _ onRecord: (Record) throws(DecodingFailure) -> Void) throws(DecodingFailure) {
        try consume(bytes[...], onRecord)
    }

    public mutating func consume(_ bytes: ArraySlice<UInt8>, _ onRecord: (Record) throws(DecodingFailure) -> Void) throws(DecodingFailure) {
        var stream = self
        self = CSVRecordStream(maxRecordBytes: maxRecordBytes, separator: separator)
        defer { self = stream }
        try withRawBytes(bytes) { (buffer) throws(DecodingFailure) in try stream.consume(buffer, onRecord) }
    }

    /// Reads `bytes`, calling `onRecord` for every record they complete. Not generic, so that a
    /// caller in another module runs the specialised loop (a generic one read 3 MB/s there).
    public mutating func consume(_ bytes: UnsafeRawBufferPointer, _ onRecord: (Record) throws(DecodingFailure) -> Void) throws(DecodingFailure) {
        var index = 0
        if let seen = byteOrderMarkSeen {
            var matched = seen
            while matched < 3, index < bytes.count, bytes[index] == UpstreamBody.byteOrderMark[matched] {
                matched += 1
                index += 1
            }
            if matched < 3 && index == bytes.count {
                byteOrderMarkSeen = matched
                return
            }
            byteOrderMarkSeen = nil
            // A start that only looked like a byte order mark is data.
            for byte in UpstreamBody.byteOrderMark[..<(matched == 3 ? 0 : matched)] { try read(byte, onRecord) }
        }
        while index < bytes.count {
            // The most common case: a whole record in this chunk, no quote, no CR but before its
            // LF. Its fields are read in place.
            if state == .recordStart, let next = try wholeRecord(bytes, from: index, onRecord) {
                index = next
                continue
            }
            // The common cases, a run of plain bytes in a field, are appended at once.
            let run = plainRun(bytes, from: index)
            if run > index {
                // The record's line first: a run too long for the limit is this record's failure.
                if state == .recordStart { record.line = line }
                guard run - index <= maxRecordBytes - storage.count else { throw tooLong }
                if state != .quoted { state = .unquoted }
                crInQuotes = false
                storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<run]))
                index = run
                if index == bytes.count { return }
            }
            try read(bytes[index], onRecord)
            index += 1
        }
    }

    /// Where the run of bytes from `start` that the current state takes as plain data ends.
    private func plainRun(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var end = start
        switch state {
        case .quoted:
            while end < bytes.count {
                let byte = bytes[end]
                if byte == Self.quote || byte == Self.lf || byte == Self.cr { break }
                end += 1
            }
        case .unquoted, .recordStart, .fieldStart:
            // A quote at a field's start opens quotes: left to `read`.
            if state != .unquoted, start < bytes.count, bytes[start] == Self.quote { return start }
            while end < bytes.count {
                let byte = bytes[end]
                if byte == separator || byte == Self.lf || byte == Self.cr { break }
                end += 1
            }
        case .quoteInQuoted, .afterCR:
            break
        }
        return end
    }

    private var tooLong: DecodingFailure { .invalidCSV(.recordTooLong(line: record.line, limit: maxRecordBytes)) }

    /// Reads the record starting at `start` in place when it ends in this chunk with no quote and
    /// no CR but one right before its LF; returns where the next one starts, or nil (nothing read)
    /// for the byte-by-byte path.
    private mutating func wholeRecord(_ bytes: UnsafeRawBufferPointer, from start: Int,
                                      _ onRecord: (Record) throws(DecodingFailure) -> Void) throws(DecodingFailure) -> Int? {
        record.starts.removeAll(keepingCapacity: true)
        record.ends.removeAll(keepingCapacity: true)
        record.starts.append(0)
        // A record longer than the limit is left to the byte-by-byte path, which reports it.
        let limit = bytes.count - start - 2 < maxRecordBytes ? bytes.count : start + maxRecordBytes + 2
        var at = start
        let separator = self.separator, highestSpecial = self.highestSpecial
        while at < limit {
            let byte = bytes[at]
            // Every byte above the separator, quote, CR and LF is data: one comparison passes it.
            if byte > highestSpecial { at &+= 1; continue }
            if byte == separator {
                record.ends.append(at &- start)
                record.starts.append(at &- start &+ 1)
            } else if byte == Self.lf {
                var end = at
                if end > start, bytes[end &- 1] == Self.cr { end &-= 1 }
                guard end &- start <= maxRecordBytes else { return nil }
                if end == start {
                    // A blank line: no fields.
                    record.starts.removeAll(keepingCapacity: true)
                } else {
                    record.ends.append(end &- start)
                }
                record.base = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
                record.line = line
                line &+= 1
                try onRecord(record)
                return at &+ 1
            } else if byte == Self.quote || (byte == Self.cr && (at &+ 1 >= bytes.count || bytes[at &+ 1] != Self.lf)) {
                break
            }
            at &+= 1
        }
        record.starts.removeAll(keepingCapacity: true)
        record.ends.removeAll(keepingCapacity: true)
        return nil
    }

    /// Ends the input: the last record may lack its line break, and a quote left open ends there.
    public mutating func finish(_ onRecord: (Record) throws(DecodingFailure) -> Void) throws(DecodingFailure) {
        if let seen = byteOrderMarkSeen, seen > 0 {
            byteOrderMarkSeen = nil
            for byte in UpstreamBody.byteOrderMark[..<seen] { try read(byte, onRecord) }
        }
        switch state {
        case .recordStart, .afterCR: break
        case .fieldStart, .unquoted, .quoted, .quoteInQuoted: try endRecord(onRecord)
        }
        state = .recordStart
    }

    private mutating func read(_ byte: UInt8, _ onRecord: (Record) throws(DecodingFailure) -> Void) throws(DecodingFailure) {
        switch state {
        case .afterCR:
            state = .recordStart
            if byte == Self.lf { return }
            try read(byte, onRecord)
        case .recordStart:
            record.line = line
            if byte == Self.lf || byte == Self.cr {
                // A blank line: a record of no fields.
                try emit(onRecord)
                lineEnded(by: byte)
                return
            }
            state = .fieldStart
            try read(byte, onRecord)
        case .fieldStart:
            if byte == Self.quote {
                state = .quoted
                crInQuotes = false
                return
            }
            state = .unquoted
            try unquoted(byte, onRecord)
        case .unquoted:
            try unquoted(byte, onRecord)
        case .quoted:
            if byte == Self.quote {
                state = .quoteInQuoted
                return
            }
            if byte == Self.cr || (byte == Self.lf && !crInQuotes) { line += 1 }
            crInQuotes = byte == Self.cr
            try append(byte)
        case .quoteInQuoted:
            // `""` is a quote; a separator or line end ends the field; anything else is data.
            if byte == Self.quote {
                try append(byte)
                state = .quoted
                crInQuotes = false
            } else {
                state = .unquoted
                try unquoted(byte, onRecord)
            }
        }
    }

    private mutating func unquoted(_ byte: UInt8, _ onRecord: (Record) throws(DecodingFailure) -> Void) throws(DecodingFailure) {
        switch byte {
        case separator:
            endField()
            state = .fieldStart
        case Self.lf, Self.cr:
            try endRecord(onRecord)
            lineEnded(by: byte)
        default: try append(byte)
        }
    }

    private mutating func lineEnded(by byte: UInt8) {
        line += 1
        state = byte == Self.cr ? .afterCR : .recordStart
    }

    private mutating func append(_ byte: UInt8) throws(DecodingFailure) {
        guard storage.count < maxRecordBytes else { throw tooLong }
        storage.append(byte)
    }

    private mutating func endField() {
        record.starts.append(record.ends.last ?? 0)
        record.ends.append(storage.count)
    }

    private mutating func endRecord(_ onRecord: (Record) throws(DecodingFailure) -> Void) throws(DecodingFailure) {
        endField()
        try emit(onRecord)
    }

    private mutating func emit(_ onRecord: (Record) throws(DecodingFailure) -> Void) throws(DecodingFailure) {
        state = .recordStart
        defer {
            storage.removeAll(keepingCapacity: true)
            record.starts.removeAll(keepingCapacity: true)
            record.ends.removeAll(keepingCapacity: true)
        }
        let record = self.record
        try withRawBytes(storage[...]) { (buffer) throws(DecodingFailure) in
            var inPlace = record
            inPlace.base = buffer
            try onRecord(inPlace)
        }
    }
}

/// `ArraySlice.withUnsafeBytes` with the typed failure kept (the library's rethrows untyped).
func withRawBytes(_ bytes: ArraySlice<UInt8>, _ body: (UnsafeRawBufferPointer) throws(DecodingFailure) -> Void) throws(DecodingFailure) {
    do {
        try bytes.withUnsafeBytes { try body($0) }
    } catch let failure as DecodingFailure {
        throw failure
    } catch {
        preconditionFailure("only DecodingFailure is thrown here")
    }
}
