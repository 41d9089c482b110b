/// The RFC 4180 reader as a push parser: bytes go in in chunks of any size, records come out as
/// soon as they end. `CSVReader.rows` reads a whole body through it; a GTFS feed streams its
/// tables through it (CTA's `stop_times.txt` has millions of rows and is never held whole).
///
/// Fields are separated by commas, records by CRLF or LF; a quoted field may hold commas, line
/// breaks and `""` for a quote. A leading UTF-8 byte order mark is skipped and the final line
/// break is optional. A blank line is a record with one empty field, as the RFC reads it.
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

        public var count: Int { ends.count }

        public subscript(field: Int) -> String {
            String(decoding: bytes(field), as: UTF8.self)
        }

        /// The field's bytes, without making a String.
        public func bytes(_ field: Int) -> Slice<UnsafeRawBufferPointer> { base[range(field)] }

        private func range(_ field: Int) -> Range<Int> { starts[field]..<ends[field] }

        /// A blank line: one empty field.
        public var isBlank: Bool { ends.count == 1 && ends[0] == 0 }
    }

    private enum State {
        case fieldStart, unquoted, unquotedCR, quoted, quoteInQuoted, crAfterQuote
    }

    private static let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\""), cr: UInt8 = 0x0D, lf: UInt8 = 0x0A

    /// Most bytes one record may hold: a body without line breaks must not grow memory unbounded.
    public let maxRecordBytes: Int
    private var state = State.fieldStart
    private var record = Record()
    /// The bytes of a record read byte by byte (quoted, or split across chunks).
    private var storage: [UInt8] = []
    private var line = 1
    private var quoteOpenedOn = 1
    /// Bytes were read since the last record ended: a record is pending at the end.
    private var pending = false
    /// How many bytes of a leading byte order mark have been seen; nil once past the start.
    private var byteOrderMarkSeen: Int? = 0

    public init(maxRecordBytes: Int = Int.max) {
        self.maxRecordBytes = maxRecordBytes
    }

    public mutating func consume(_ bytes: [UInt8], _ onRecord: (Record) throws(DecodingFailure) -> Void) throws(DecodingFailure) {
        try consume(bytes[...], onRecord)
    }

    public mutating func consume(_ bytes: ArraySlice<UInt8>, _ onRecord: (Record) throws(DecodingFailure) -> Void) throws(DecodingFailure) {
        var stream = self
        self = CSVRecordStream(maxRecordBytes: maxRecordBytes)
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
            if state == .fieldStart && !pending, let next = try wholeRecord(bytes, from: index, onRecord) {
                index = next
                continue
            }
            // The common case, a run of plain bytes in an unquoted field, is appended at once.
            if state == .unquoted || (state == .fieldStart && bytes[index] != Self.quote) {
                var end = index
                while end < bytes.count {
                    let byte = bytes[end]
                    if byte == Self.comma || byte == Self.lf || byte == Self.cr || byte == Self.quote { break }
                    end += 1
                }
                if end > index {
                    guard end - index <= maxRecordBytes - storage.count else {
                        throw .invalidCSV(.recordTooLong(line: line, limit: maxRecordBytes))
                    }
                    pending = true
                    state = .unquoted
                    storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<end]))
                    index = end
                    if index == bytes.count { return }
                }
            }
            try read(bytes[index], onRecord)
            index += 1
        }
    }

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
        while at < limit {
            let byte = bytes[at]
            // Comma, quote, CR and LF are all at most 0x2C: one comparison passes the rest.
            if byte > Self.comma { at &+= 1; continue }
            if byte == Self.comma {
                record.ends.append(at &- start)
                record.starts.append(at &- start &+ 1)
            } else if byte == Self.lf {
                var end = at
                if end > start, bytes[end &- 1] == Self.cr { end &-= 1 }
                guard end &- start <= maxRecordBytes else { return nil }
                record.ends.append(end &- start)
                record.base = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
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

    /// Ends the input: the last record may lack its line break; a quote left open is a failure.
    public mutating func finish(_ onRecord: (Record) throws(DecodingFailure) -> Void) throws(DecodingFailure) {
        if let seen = byteOrderMarkSeen, seen > 0 {
            byteOrderMarkSeen = nil
            for byte in UpstreamBody.byteOrderMark[..<seen] { try read(byte, onRecord) }
        }
        switch state {
        case .quoted: throw .invalidCSV(.unterminatedQuote(line: quoteOpenedOn))
        case .crAfterQuote: throw .invalidCSV(.strayQuote(line: line))
        case .unquotedCR: try append(Self.cr)
        case .fieldStart, .unquoted, .quoteInQuoted: break
        }
        if pending { try endRecord(onRecord) }
        state = .fieldStart
    }

    private mutating func read(_ byte: UInt8, _ onRecord: (Record) throws(DecodingFailure) -> Void) throws(DecodingFailure) {
        pending = true
        switch state {
        case .fieldStart:
            if byte == Self.quote {
                state = .quoted
                quoteOpenedOn = line
                return
            }
            state = .unquoted
            try unquoted(byte, onRecord)
        case .unquoted:
            try unquoted(byte, onRecord)
        case .unquotedCR:
            if byte == Self.lf {
                try endRecord(onRecord)
                return
            }
            // A lone CR is data.
            try append(Self.cr)
            state = .unquoted
            try unquoted(byte, onRecord)
        case .quoted:
            if byte == Self.quote {
                state = .quoteInQuoted
                return
            }
            if byte == Self.lf { line += 1 }
            try append(byte)
        case .quoteInQuoted:
            // After a closing quote only a separator or the end may follow; `""` is a quote.
            switch byte {
            case Self.quote:
                try append(byte)
                state = .quoted
            case Self.comma: endField()
            case Self.lf: try endRecord(onRecord)
            case Self.cr: state = .crAfterQuote
            default: throw .invalidCSV(.strayQuote(line: line))
            }
        case .crAfterQuote:
            guard byte == Self.lf else { throw .invalidCSV(.strayQuote(line: line)) }
            try endRecord(onRecord)
        }
    }

    private mutating func unquoted(_ byte: UInt8, _ onRecord: (Record) throws(DecodingFailure) -> Void) throws(DecodingFailure) {
        switch byte {
        case Self.comma: endField()
        case Self.lf: try endRecord(onRecord)
        case Self.cr: state = .unquotedCR
        case Self.quote: throw .invalidCSV(.strayQuote(line: line))
        default: try append(byte)
        }
    }

    private mutating func append(_ byte: UInt8) throws(DecodingFailure) {
        guard storage.count < maxRecordBytes else { throw .invalidCSV(.recordTooLong(line: line, limit: maxRecordBytes)) }
        storage.append(byte)
    }

    private mutating func endField() {
        record.starts.append(record.ends.last ?? 0)
        record.ends.append(storage.count)
        state = .fieldStart
    }

    private mutating func endRecord(_ onRecord: (Record) throws(DecodingFailure) -> Void) throws(DecodingFailure) {
        endField()
        line += 1
        pending = false
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
