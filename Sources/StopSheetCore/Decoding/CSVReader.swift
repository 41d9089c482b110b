/// A whole CSV body as rows of fields, read by `CSVRecordStream` (which says what RFC 4180
/// reading means here), after checking the body is UTF-8.
public enum CSVReader {
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// A quoted field opened on this line (1-based) never closes.
        case unterminatedQuote(line: Int)
        /// A quote inside an unquoted field, or text after a quoted field's closing quote.
        case strayQuote(line: Int)
        /// A record longer than the reader's bound (a streamed table without line breaks).
        case recordTooLong(line: Int, limit: Int)

        public var description: String {
            switch self {
            case .unterminatedQuote(let line): return "quoted field opened on line \(line) is never closed"
            case .strayQuote(let line): return "misplaced quote on line \(line)"
            case .recordTooLong(let line, let limit): return "record on line \(line) is longer than \(limit) bytes"
            }
        }
    }

    public static func rows(_ bytes: [UInt8]) throws(DecodingFailure) -> [[String]] {
        try UpstreamBody.validateUTF8(bytes)
        var rows: [[String]] = []
        var stream = CSVRecordStream()
        let collect = { (record: CSVRecordStream.Record) throws(DecodingFailure) in rows.append((0..<record.count).map { record[$0] }) }
        try stream.consume(bytes, collect)
        try stream.finish(collect)
        return rows
    }
}
