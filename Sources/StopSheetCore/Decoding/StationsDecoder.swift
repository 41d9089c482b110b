/// Platforms from whatever the stations upstream sent, its format detected from the body: the app
/// API (`{"stops": …}`), the 'L' stops dataset as a JSON array, or its CSV export (recognised by
/// STOP_ID and MAP_ID in the first line).
public enum StationsDecoder {
    public static func decode(_ bytes: [UInt8], limits: DecodingLimits = .init()) throws(DecodingFailure) -> [Platform] {
        try UpstreamBody.validateUTF8(bytes)
        let body = UpstreamBody.withoutByteOrderMark(bytes)
        guard let first = UpstreamBody.firstSignificantByte(body) else { throw .unrecognisedFormat("empty body") }

        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            let document = try UpstreamBody.json(bytes, limits: limits)
            if document.arrayValue != nil { return try LStopsJSONDecoder.decode(document, limits: limits) }
            if document["stops"] != nil { return try AppStopsDecoder.decode(document, limits: limits) }
            throw .unrecognisedFormat("\(UpstreamBody.describeRoot(document)); expected 'stops' or an array of 'L' stops")
        }
        if isLStopsCSVHeader(body) { return try LStopsCSVDecoder.decode(bytes, limits: limits) }
        throw .unrecognisedFormat(UpstreamBody.notJSONHint(body, expected: "JSON or an 'L' stops CSV"))
    }

    private static func isLStopsCSVHeader(_ body: ArraySlice<UInt8>) -> Bool {
        let firstLine = String(decoding: body.prefix { $0 != 0x0A }, as: UTF8.self).uppercased()
        return firstLine.contains(LStopsSchema.stopID) && firstLine.contains(LStopsSchema.mapID)
    }
}
