/// Platforms from whatever the stations upstream sent, its format detected from the body: the app
/// API (`{"stops": …}`), the 'L' stops dataset as a JSON array, its CSV export (recognised by
/// STOP_ID and MAP_ID in the first line), or GTFS `stops.txt` (stop_id and parent_station).
/// A GTFS feed (a zip) is the daemon's to open; its tables come here through `GTFSStopsDecoder`.
public enum StationsDecoder {
    public static func decode(_ bytes: [UInt8], limits: DecodingLimits = .init()) throws(DecodingFailure) -> [Platform] {
        try decodeStations(bytes, limits: limits).platforms
    }

    /// The platforms and, from GTFS, entrances and whether lines are known.
    public static func decodeStations(_ bytes: [UInt8], limits: DecodingLimits = .init()) throws(DecodingFailure) -> DecodedStations {
        if bytes.starts(with: zipSignature) { throw .unrecognisedFormat("body is a zip archive; only a GTFS feed source reads one") }
        try UpstreamBody.validateUTF8(bytes)
        let body = UpstreamBody.withoutByteOrderMark(bytes)
        guard let first = UpstreamBody.firstSignificantByte(body) else { throw .unrecognisedFormat("empty body") }

        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            let document = try UpstreamBody.json(bytes, limits: limits)
            if document.arrayValue != nil { return DecodedStations(platforms: try LStopsJSONDecoder.decode(document, limits: limits)) }
            if document["stops"] != nil { return DecodedStations(platforms: try AppStopsDecoder.decode(document, limits: limits)) }
            throw .unrecognisedFormat("\(UpstreamBody.describeRoot(document)); expected 'stops' or an array of 'L' stops")
        }
        if isGTFSStopsHeader(body) { return try GTFSStopsDecoder.decode(bytes, limits: limits) }
        if isLStopsCSVHeader(body) { return try LStopsCSVDecoder.decodeStations(bytes, limits: limits) }
        throw .unrecognisedFormat(UpstreamBody.notJSONHint(body, expected: "JSON, an 'L' stops CSV or GTFS stops.txt"))
    }

    /// A zip local file header: a GTFS feed.
    public static let zipSignature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

    /// GTFS column names are lowercase; the 'L' stops export has no parent_station.
    private static func isGTFSStopsHeader(_ body: ArraySlice<UInt8>) -> Bool {
        let names = String(decoding: body.prefix { $0 != 0x0A }, as: UTF8.self)
            .split(separator: ",", omittingEmptySubsequences: false)
            .map { UpstreamText.trimmed(String($0)).trimmingQuotes() }
        return names.contains("stop_id") && names.contains("parent_station")
    }

    private static func isLStopsCSVHeader(_ body: ArraySlice<UInt8>) -> Bool {
        let firstLine = String(decoding: body.prefix { $0 != 0x0A }, as: UTF8.self).uppercased()
        return firstLine.contains(LStopsSchema.stopID) && firstLine.contains(LStopsSchema.mapID)
    }
}

private extension String {
    func trimmingQuotes() -> String {
        count >= 2 && hasPrefix("\"") && hasSuffix("\"") ? String(dropFirst().dropLast()) : self
    }
}
