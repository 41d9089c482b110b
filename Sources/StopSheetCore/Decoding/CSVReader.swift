/// A whole CSV body as rows of fields, read by `CSVRecordStream` (which reads as Python's `csv`
/// module does), after checking the body is UTF-8. A blank line is a row of no fields.
public enum CSVReader {
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// A record longer than the reader's bound (a streamed table without line breaks).
        case recordTooLong(line: Int, limit: Int)

        public var description: String {
            switch self {
            case .recordTooLong(let line, let limit): return "record on line \(line) is longer than \(limit) bytes"
            }
        }
    }

    public static func rows(_ bytes: [UInt8], separator: UInt8 = CSVRecordStream.comma) throws(DecodingFailure) -> [[String]] {
        try UpstreamBody.validateUTF8(bytes)
        var rows: [[String]] = []
        var stream = CSVRecordStream(separator: separator)
        let collect = { (record: CSVRecordStream.Record) throws(DecodingFailure) in rows.append((0..<record.count).map { record[$0] }) }
        try stream.consume(bytes, collect)
        try stream.finish(collect)
        return rows
    }

    /// The rows after the header that hold data, each with its position in `rows` (the header is
    /// 0): a blank line (no fields) and a line of one empty field (`""`) are skipped, so that a
    /// table's spacing is no notice.
    public static func dataRows(_ rows: [[String]]) -> [(offset: Int, element: [String])] {
        rows.enumerated().dropFirst().filter { !$0.element.isEmpty && $0.element != [""] }
    }
}
