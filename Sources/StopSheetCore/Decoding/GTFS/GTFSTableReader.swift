/// One GTFS table — a CSV file whose first record names its columns — read as a stream, so a
/// table of millions of rows is never held whole: bytes go in in chunks, rows come out with the
/// columns the caller asked for, by name.
///
/// Column names are matched trimmed and in any case. A row shorter than the header reads its
/// missing fields as empty (GTFS producers drop trailing empty fields); blank lines are skipped.
/// A value type, owned by whoever feeds it.
public struct GTFSTableReader {
    /// A data row, valid during the callback it is passed to.
    public struct Row {
        fileprivate let record: CSVRecordStream.Record
        fileprivate let columns: [Int?]
        /// 1-based, as a spreadsheet shows it: the header is row 1.
        public let number: Int

        /// The bytes of the n-th requested column; empty when the column or the field is absent.
        public func bytes(_ column: Int) -> Slice<UnsafeRawBufferPointer> {
            guard let index = columns[column], index < record.count else { return UnsafeRawBufferPointer(start: nil, count: 0)[...] }
            return record.bytes(index)
        }

        /// The n-th requested column's text, trimmed; empty when absent.
        public func text(_ column: Int) -> String {
            UpstreamText.trimmed(String(decoding: bytes(column), as: UTF8.self))
        }

        /// Whether the n-th requested column is in the table at all.
        public func hasColumn(_ column: Int) -> Bool { columns[column] != nil }
    }

    /// The table's file name, for failure paths (`stop_times.txt row 12`).
    public let name: String
    private let required: [String]
    private let optional: [String]
    private var stream: CSVRecordStream
    private var columns: [Int?]?
    private var rows = 0
    private let maxRows: Int?

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
        guard columns != nil else { throw .malformed(path: "\(name) header", reason: "no header row") }
    }

    private mutating func takeStream() -> CSVRecordStream {
        defer { stream = CSVRecordStream(maxRecordBytes: stream.maxRecordBytes) }
        return stream
    }

    private mutating func take(_ record: CSVRecordStream.Record, _ onRow: (Row) throws(DecodingFailure) -> Void) throws(DecodingFailure) {
        rows += 1
        guard let columns else {
            columns = try header(record)
            return
        }
        if record.isBlank { return }
        if let maxRows, rows - 1 > maxRows { throw .tooMany(count: rows - 1, limit: maxRows) }
        try onRow(Row(record: record, columns: columns, number: rows))
    }

    private func header(_ record: CSVRecordStream.Record) throws(DecodingFailure) -> [Int?] {
        let names = (0..<record.count).map { UpstreamText.trimmed(record[$0]).lowercased() }
        var found: [Int?] = []
        for name in required {
            guard let index = names.firstIndex(of: name) else { throw .malformed(path: "\(self.name) header", reason: "no \(name) column") }
            found.append(index)
        }
        for name in optional { found.append(names.firstIndex(of: name)) }
        return found
    }
}
