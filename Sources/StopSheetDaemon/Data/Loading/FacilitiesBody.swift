import StopSheetCore

/// A lift-status body as `--facilities-url` serves it, its format recognised from its content:
/// a body whose first significant character is `<` is SIRI-FM XML (`MarkupReader`); one whose
/// first line names `ZdcId` and `liftStatus` is IDFM's CSV; any other is JSON, WMATA's, NYCT's,
/// TfL's, DB's FaSta or IDFM's API answer (`FacilitiesDecoder`).
public enum FacilitiesBody {
    public static func decode(_ bytes: [UInt8], local: TimeZoneRules, limits: DecodingLimits = .init()) throws(DecodingFailure) -> FacilitiesDecoder.Feed {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let first = bytes[start...].first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        // Only a body that starts as neither XML nor JSON is read as a header line (a FaSta body
        // minified is one line of most of a megabyte).
        if let first, ![UInt8(ascii: "<"), UInt8(ascii: "["), UInt8(ascii: "{")].contains(first), FacilitiesDecoder.isCSV(bytes) {
            return try FacilitiesDecoder.decode(csv: bytes, local: local, limits: limits)
        }
        guard first == UInt8(ascii: "<") else { return try FacilitiesDecoder.decode(json: bytes, local: local, limits: limits) }
        return try FacilitiesDecoder.decode(siri: MarkupReader.read(Array(bytes[start...]), limits: limits), local: local, limits: limits)
    }
}
