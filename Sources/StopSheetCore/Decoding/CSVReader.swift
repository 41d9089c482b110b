/// An RFC 4180 reader: fields separated by commas, records by CRLF or LF; a quoted field may hold
/// commas, line breaks and `""` for a quote. A leading UTF-8 byte order mark is skipped and the
/// final line break is optional. A blank line is a record with one empty field, as the RFC reads it.
public enum CSVReader {
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// A quoted field opened on this line (1-based) never closes.
        case unterminatedQuote(line: Int)
        /// A quote inside an unquoted field, or text after a quoted field's closing quote.
        case strayQuote(line: Int)

        public var description: String {
            switch self {
            case .unterminatedQuote(let line): return "quoted field opened on line \(line) is never closed"
            case .strayQuote(let line): return "misplaced quote on line \(line)"
            }
        }
    }

    public static func rows(_ bytes: [UInt8]) throws(DecodingFailure) -> [[String]] {
        try UpstreamBody.validateUTF8(bytes)
        do {
            return try parse(UpstreamBody.withoutByteOrderMark(bytes))
        } catch {
            throw .invalidCSV(error)
        }
    }

    private static let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\""), cr: UInt8 = 0x0D, lf: UInt8 = 0x0A

    private static func parse(_ bytes: ArraySlice<UInt8>) throws(Failure) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field: [UInt8] = []
        var line = 1
        var index = bytes.startIndex

        func endField() {
            row.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }

        while index < bytes.endIndex {
            if bytes[index] == quote {
                guard field.isEmpty else { throw .strayQuote(line: line) }
                let openedOn = line
                index += 1
                while true {
                    guard index < bytes.endIndex else { throw .unterminatedQuote(line: openedOn) }
                    let byte = bytes[index]
                    index += 1
                    if byte == quote {
                        guard index < bytes.endIndex, bytes[index] == quote else { break }
                        index += 1
                    } else if byte == lf {
                        line += 1
                    }
                    field.append(byte)
                }
                // After the closing quote only a separator or the end may follow.
                guard index == bytes.endIndex || bytes[index] == comma || bytes[index] == lf
                    || (bytes[index] == cr && index + 1 < bytes.endIndex && bytes[index + 1] == lf)
                else { throw .strayQuote(line: line) }
            }
            guard index < bytes.endIndex else { break }
            let byte = bytes[index]
            index += 1
            switch byte {
            case comma:
                endField()
            case lf:
                endField()
                rows.append(row)
                row.removeAll()
                line += 1
            case cr where index < bytes.endIndex && bytes[index] == lf:
                continue
            default:
                field.append(byte)
            }
        }
        // A last record without its line break; an empty body has no records at all.
        if !row.isEmpty || !field.isEmpty || (index > bytes.startIndex && bytes.last != lf) {
            endField()
            rows.append(row)
        }
        return rows
    }
}
