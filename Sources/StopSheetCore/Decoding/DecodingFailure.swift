/// Why an upstream body could not be turned into alerts or platforms. The description is one
/// English line: it is what `health.lastError` and the journal show.
public enum DecodingFailure: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidUTF8(offset: Int)
    case invalidJSON(JSONParser.Failure)
    case invalidCSV(CSVReader.Failure)
    case invalidProtobuf(ProtobufReader.Failure)
    /// Not XML the daemon reads: malformed, too deep or large, or with a DTD (refused whole, so
    /// no entity is ever declared or expanded). The text is the reader's.
    case invalidXML(String)
    /// The body is none of the formats this source accepts; the text says what it looked like.
    case unrecognisedFormat(String)
    /// The format was recognised but a value is missing or of the wrong shape. `path` names it,
    /// e.g. `CTAAlerts.Alert[3].ImpactedService` or `row 17 column MAP_ID`.
    case malformed(path: String, reason: String)
    /// The CTA API answered with an `ErrorCode` that is not success or "no alerts".
    case upstreamError(code: String, message: String?)
    /// More items than `DecodingLimits.maxItems`; `count` is nil when the JSON parser stopped at
    /// the first array or object member past the limit, not counting the rest.
    case tooMany(count: Int?, limit: Int)

    public var description: String {
        switch self {
        case .invalidUTF8(let offset): return "body is not valid UTF-8 (byte offset \(offset))"
        case .invalidJSON(let failure): return "body is not valid JSON: \(failure)"
        case .invalidCSV(let failure): return "body is not valid CSV: \(failure)"
        case .invalidProtobuf(let failure): return "body is not a valid protobuf message: \(failure)"
        case .invalidXML(let reason): return "body is not acceptable XML: \(reason)"
        case .unrecognisedFormat(let hint): return "unrecognised upstream format: \(hint)"
        case .malformed(let path, let reason): return "malformed upstream data at \(path): \(reason)"
        case .upstreamError(let code, let message):
            guard let message, !message.isEmpty else { return "CTA API error \(code)" }
            return "CTA API error \(code): \(message)"
        case .tooMany(let count?, let limit): return "upstream sent \(count) items, more than the limit of \(limit)"
        case .tooMany(nil, let limit): return "upstream sent more than the limit of \(limit) items"
        }
    }
}
