/// The station table's body (`--facilities-stations-url`): a CSV whose header has `station_ref`
/// and `stop_id` (any order, any case; other columns ignored), one row per reference and stop.
/// A row with either field empty is a notice and is skipped; a row whose stop is no station's is
/// known only against the station data, so the join's snapshot counts it
/// (`FacilityStationTable.notices(against:)`).
public enum FacilityStationTableDecoder {
    public static func decode(_ bytes: [UInt8], limits: DecodingLimits = .init()) throws(DecodingFailure)
        -> (table: FacilityStationTable, notices: FeedNotices)
    {
        let rows = try CSVReader.rows(Array(UpstreamBody.withoutByteOrderMark(bytes)))
        guard let header = rows.first else { throw .unrecognisedFormat("empty body") }
        let names = header.map { UpstreamText.trimmed($0).lowercased() }
        guard let refColumn = names.firstIndex(of: "station_ref"), let stopColumn = names.firstIndex(of: "stop_id") else {
            throw .unrecognisedFormat("not a CSV whose header has station_ref and stop_id")
        }
        let records = CSVReader.dataRows(rows)
        try limits.check(itemCount: records.count)
        var notices = FeedNotices()
        var table: [FacilityStationTable.Row] = []
        for (index, row) in records {
            func field(_ column: Int) -> String {
                column < row.count ? UpstreamText.trimmed(row[column]) : ""
            }
            let ref = field(refColumn), stop = field(stopColumn)
            guard !ref.isEmpty, !stop.isEmpty else {
                notices.add(FacilityStationTable.file, line: index + 1, ref.isEmpty ? "station_ref is empty; skipped" : "'\(UpstreamText.quoted(ref))': stop_id is empty; skipped")
                continue
            }
            table.append(.init(stationRef: ref, stopID: stop, line: index + 1))
        }
        return (FacilityStationTable(rows: table), notices)
    }
}
