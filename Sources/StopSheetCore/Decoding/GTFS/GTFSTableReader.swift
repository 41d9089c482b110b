/// One GTFS table — a CSV file whose first record names its columns — read as a stream, so a
/// table of millions of rows is never held whole: bytes go in in chunks, rows come out with the
/// columns the caller asked for, by name.
///
/// Records are read as Python's `csv` reads them (`CSVRecordStream`); column names are matched
/// trimmed and in any case, and every value is trimmed (GTFS ids and names never keep edge
/// spaces). Blank lines are skipped. A row whose field count is not the header's is skipped and
/// counted in `notices`: which column a value belongs to is then a guess. A required column
/// missing from the header is the one failure of a table's content.
/// A value type, owned by whoever feeds it.
public struct GTFSTableReader {
    /// A data row, valid during the callback it is passed to.
    public struct Row {
        fileprivate let record: CSVRecordStream.Record
        fileprivate let columns: [Int?]

        /// The line the row starts on (1-based: the header is line 1), for notices.
        public var line: Int { record.line }

        /// The bytes of the n-th requested column, untrimmed; empty when the column is absent.
        public func bytes(_ column: Int) -> Slice<UnsafeRawBufferPointer> {
            guard let index = columns[column] else { return UnsafeRawBufferPointer(start: nil, count: 0)[...] }
            return record.bytes(index)
        }

        /// The n-th requested column's text, trimmed; empty when absent.
        public func text(_ column: Int) -> String {
            UpstreamText.trimmed(String(decoding: bytes(column), as: UTF8.self))
        }

        /// Whether the n-th requested column is in the table at all.
        public func hasColumn(_ column: Int) -> Bool { columns[column] != nil }
    }

    /// The table's file name, for failures and notices (`stop_times.txt line 12`).
    public let name: String
    private let required: [String]
    private let optional: [String]
    private var stream: CSVRecordStream
    private var columns: [Int?]?
    private var headerCount = 0
    private var rows = 0
    private let maxRows: Int?
    /// Rows skipped for their field count.
    public private(set) var notices = FeedNotices()

    /// Rows give `required` then `optional` columns, by position in that concatenation.
    /// `maxRows`, when given, bounds the data rows (a failure past it, never a truncation).
    public init(name: String, required: [String], optional: [String] = [], maxRows: Int? = nil) {
        self.name = name
        self.required = required
        self.optional = optional
        self.maxRows = maxRows
        // GTFS rows are short; a record this long is a body without line breaks.
        stream = CSVRecordStream(maxRecordBytes: 1 << 20)
    }

    public mutating func consume(_ bytes: [UInt8], _ onRow: (Row) throws(DecodingFailure) -> Void) throws(DecodingFailure) {
        try withRawBytes(bytes[...]) { (buffer) throws(DecodingFailure) in try consume(buffer, onRow) }
    }

    public mutating func consume(_ bytes: UnsafeRawBufferPointer, _ onRow: (Row) throws(DecodingFailure) -> Void) throws(DecodingFailure) {
        // Moved out while it runs, so the callback may change `self` and the record buffer stays
        // uniquely owned (no copy-on-write per chunk).
        var stream = takeStream()
        defer { self.stream = stream }
        try stream.consume(bytes) { (record) throws(DecodingFailure) in try self.take(record, onRow) }
    }

    /// Ends the table; a table with no header at all is a failure.
    public mutating func finish(_ onRow: (Row) throws(DecodingFailure) -> Void) throws(DecodingFailure) {
        var stream = takeStream()
        defer { self.stream = stream }
        try stream.finish { (record) throws(DecodingFailure) in try self.take(record, onRow) }
        guard columns != nil else { throw .malformed(path: "\(name) line 1", reason: "no header row") }
    }

    private mutating func takeStream() -> CSVRecordStream {
        defer { stream = CSVRecordStream(maxRecordBytes: stream.maxRecordBytes) }
        return stream
    }

    private mutating func take(_ record: CSVRecordStream.Record, _ onRow: (Row) throws(DecodingFailure) -> Void) throws(DecodingFailure) {
        if record.isBlank { return }
        guard let columns else {
            columns = try header(record)
            headerCount = record.count
            return
        }
        rows += 1
        if let maxRows, rows > maxRows { throw .tooMany(count: rows, limit: maxRows) }
        guard record.count == headerCount else { return skip(record) }
        try onRow(Row(record: record, columns: columns))
    }

    /// A row whose field count is not the header's; apart, so the common path stays small.
    @inline(never)
    private mutating func skip(_ record: CSVRecordStream.Record) {
        notices.add(name, line: record.line, "\(record.count) fields, the header has \(headerCount): row skipped")
    }

    private func header(_ record: CSVRecordStream.Record) throws(DecodingFailure) -> [Int?] {
        let names = (0..<record.count).map { UpstreamText.trimmed(record[$0]).lowercased() }
        var found: [Int?] = []
        for name in required {
            guard let index = names.firstIndex(of: name) else {
                throw .malformed(path: "\(self.name) line \(record.line) column \(name)", reason: "no such column in the header")
            }
            found.append(index)
        }
        for name in optional { found.append(names.firstIndex(of: name)) }
        return found
    }
}
