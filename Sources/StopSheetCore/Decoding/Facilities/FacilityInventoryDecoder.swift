/// The inventory body (`--facilities-inventory-url`), its format recognised from its content:
/// - NYCT's `nyct_ene_equipments.json`: an array of units with `equipmentno`,
///   `elevatorsgtfsstopid` (GTFS stop ids joined by `/`), `ADA` (`Y`/`N`), `redundant` (0/1)
///   and `serving`;
/// - a CSV with the header `facility_id,stop_id,pathway_id` (any order, any case; other
///   columns ignored; either id may be empty, not both);
/// - TfL's detailed `Lifts.csv` (a header with `LiftUniqueId`): each lift at its
///   `StationUniqueId`, serving its `FriendlyName`, `FromAreas` and `ToAreas` (`TfLLifts`).
/// A row that cannot be used is a notice and is skipped.
public enum FacilityInventoryDecoder {
    public static func decode(_ bytes: [UInt8], limits: DecodingLimits = .init()) throws(DecodingFailure)
        -> (inventory: FacilityInventory, notices: FeedNotices)
    {
        let body = UpstreamBody.withoutByteOrderMark(bytes)
        if let first = UpstreamBody.firstSignificantByte(body), first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
            return try equipments(UpstreamBody.json(bytes, limits: limits), limits: limits)
        }
        return try csv(bytes, limits: limits)
    }

    static let equipmentsTable = "nyct_ene_equipments"
    static let csvTable = "inventory.csv"

    private static func equipments(_ document: JSON, limits: DecodingLimits) throws(DecodingFailure) -> (FacilityInventory, FeedNotices) {
        guard let rows = document.arrayValue else {
            throw .unrecognisedFormat(UpstreamBody.describeRoot(document) + " (expected NYCT's equipments array or a CSV)")
        }
        var notices = FeedNotices()
        let units = try FacilitiesDecoder.rows(rows, table: equipmentsTable, idKey: "equipmentno", limits: limits, notices: &notices) { object, unit, _ in
            let stops = (FacilitiesDecoder.text(object["elevatorsgtfsstopid"]) ?? "").split(separator: "/")
                .map { UpstreamText.trimmed(String($0)) }.filter { !$0.isEmpty }
            let ada = FacilitiesDecoder.text(object["ADA"])?.uppercased()
            let redundant = FacilitiesDecoder.text(object["redundant"])
            return FacilityInventory.Row(unitID: unit, stopIDs: stops, isADA: ada == "Y" ? true : ada == "N" ? false : nil,
                                          isRedundant: redundant == "1" ? true : redundant == "0" ? false : nil,
                                          serving: UpstreamText.plain(FacilitiesDecoder.text(object["serving"]) ?? ""))
        }
        return (FacilityInventory(rows: units), notices)
    }

    private static func csv(_ bytes: [UInt8], limits: DecodingLimits) throws(DecodingFailure) -> (FacilityInventory, FeedNotices) {
        let rows = try CSVReader.rows(bytes)
        guard let header = rows.first else { throw .unrecognisedFormat("empty body") }
        let names = header.map { UpstreamText.trimmed($0).lowercased() }
        if names.contains(TfLLifts.idColumn) { return try TfLLifts.decode(rows, names: names, limits: limits) }
        guard let unitColumn = names.firstIndex(of: "facility_id") else {
            throw .unrecognisedFormat("neither JSON nor a CSV whose header has facility_id or LiftUniqueId")
        }
        let stopColumn = names.firstIndex(of: "stop_id"), pathwayColumn = names.firstIndex(of: "pathway_id")
        let records = CSVReader.dataRows(rows)
        try limits.check(itemCount: records.count)
        var notices = FeedNotices()
        var units: [FacilityInventory.Row] = []
        for (index, row) in records {
            func field(_ column: Int?) -> String? {
                guard let column, column < row.count else { return nil }
                let text = UpstreamText.trimmed(row[column])
                return text.isEmpty ? nil : text
            }
            guard let unit = field(unitColumn) else {
                notices.add(csvTable, line: index + 1, "facility_id is empty; skipped")
                continue
            }
            let stop = field(stopColumn), pathway = field(pathwayColumn)
            guard stop != nil || pathway != nil else {
                notices.add(csvTable, line: index + 1, "\(UpstreamText.quoted(unit)): both stop_id and pathway_id are empty; skipped")
                continue
            }
            units.append(.init(unitID: unit, stopIDs: stop.map { [$0] } ?? [], pathwayID: pathway))
        }
        return (FacilityInventory(rows: units), notices)
    }
}
