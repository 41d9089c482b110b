/// Île-de-France Mobilités' "état des ascenseurs": one record a lift, inventory and status
/// together, in two forms that carry the same fields:
/// - the CSV export: `;`-separated, CRLF, with or without a byte order mark, its header naming
///   `ZdcId` and `liftStatus` (the names read in any case);
/// - the API's JSON, `{"total_count": N, "results": [...]}`, each record's names in lower case
///   (`zdcid`, `liftid`, `liftstatus`…), or its JSON export, an array of the same records.
///
/// The one mapping both forms share (`unit`):
/// - `liftId` is the unit's id; a record without one is a notice and skipped;
/// - `liftStatus` `available` is `available`, `notavailable` `notAvailable`; **empty is a lift
///   IDFM does not monitor: `unknown`, never out**; another word is `unknown` with a notice;
/// - `liftReason` (`liftFailure`, `undefinedEquipmentProblem`) is its `description`;
///   `liftSituation` and `liftDirection` ("Niveau Intermédiaire - Quai 1", "Olympiades") what it
///   serves, joined by `, `; `liftStateUpdate` (ISO 8601 with its offset) since when;
/// - IDFM names no stop of the station data: `ZdcId` (the "zone de correspondance") is the
///   station's reference (`Location.stationRef`), `ZdcCentroid` ("lat,lon", WGS 84; the API may
///   give it as `{"lat", "lon"}`) its position. A lift without either is kept, and listed.
/// Every unit is an elevator: the dataset lists lifts only.
enum IDFMLiftsDecoder {
    static let csvTable = "etat-des-ascenseurs.csv"
    static let apiTable = "results"
    static let separator = UInt8(ascii: ";")
    /// A lift's id as the API's records name it (the CSV's `liftId`, read in any case).
    static let idKey = "liftid"

    static let statuses: [String: FacilityUnit.Status] = ["available": .available, "notavailable": .notAvailable, "": .unknown]

    /// Whether the body's first line, read as a `;`-separated header, names `ZdcId` and `liftStatus`.
    static func isCSV(_ bytes: [UInt8]) -> Bool {
        let body = UpstreamBody.withoutByteOrderMark(bytes)
        let end = body.firstIndex { $0 == 0x0A || $0 == 0x0D } ?? body.endIndex
        guard let header = try? CSVReader.rows(Array(body[..<end]), separator: separator).first else { return false }
        let names = Set(header.map { UpstreamText.trimmed($0).lowercased() })
        return names.contains("zdcid") && names.contains("liftstatus")
    }

    static func decode(csv bytes: [UInt8], local: TimeZoneRules, limits: DecodingLimits) throws(DecodingFailure) -> FacilitiesDecoder.Feed {
        let rows = try CSVReader.rows(bytes, separator: separator)
        guard let header = rows.first else { throw .unrecognisedFormat("empty body") }
        let names = header.map { UpstreamText.trimmed($0).lowercased() }
        guard names.contains(idKey) else { throw .malformed(path: csvTable, reason: "the header has no liftId") }
        let records = CSVReader.dataRows(rows)
        try limits.check(itemCount: records.count)
        var columns: [String: Int] = [:]
        for (column, name) in names.enumerated() where columns[name] == nil { columns[name] = column }
        var notices = FeedNotices()
        let units = records.compactMap { index, row in
            unit(line: index + 1, table: csvTable, local: local, notices: &notices) { name in
                guard let column = columns[name], column < row.count else { return nil }
                return row[column]
            }
        }
        return FacilitiesDecoder.Feed(format: .idfm, units: units, notices: notices)
    }

    static func decode(api document: JSON, local: TimeZoneRules, limits: DecodingLimits) throws(DecodingFailure) -> FacilitiesDecoder.Feed {
        try decode(records: JSONFields.array(document["results"], at: apiTable), local: local, limits: limits)
    }

    /// The API's records, from its `results` or its JSON export's array.
    static func decode(records: [JSON], local: TimeZoneRules, limits: DecodingLimits) throws(DecodingFailure) -> FacilitiesDecoder.Feed {
        try limits.check(itemCount: records.count)
        var notices = FeedNotices()
        var units: [FacilityUnit] = []
        units.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            guard let object = record.objectValue else {
                notices.add(apiTable, line: index + 1, "record is no object; skipped")
                continue
            }
            let unit = unit(line: index + 1, table: apiTable, local: local, notices: &notices) { name in
                // A geo point the API may give as an object is read as the CSV's "lat,lon".
                if let point = object[name]?.objectValue, let lat = point["lat"]?.scalarText, let lon = point["lon"]?.scalarText {
                    return "\(lat),\(lon)"
                }
                return object[name]?.scalarText
            }
            if let unit { units.append(unit) }
        }
        return FacilitiesDecoder.Feed(format: .idfm, units: units, notices: notices)
    }

    /// One lift from its fields by lower-case name (`field`, nil when absent), or nil (a notice)
    /// when it has no `liftId`. `local` reads a `liftStateUpdate` without an offset.
    private static func unit(line: Int, table: String, local: TimeZoneRules, notices: inout FeedNotices,
                             _ field: (String) -> String?) -> FacilityUnit? {
        func text(_ name: String) -> String { field(name).map(UpstreamText.trimmed) ?? "" }
        let id = text(idKey)
        guard !id.isEmpty else {
            notices.add(table, line: line, "liftId is empty; skipped")
            return nil
        }
        let word = text("liftstatus")
        let status = statuses[word.lowercased()]
        if status == nil {
            notices.add(table, line: line, "\(UpstreamText.quoted(id)): liftStatus '\(UpstreamText.quoted(word))' is none of available, notavailable or empty; read as unknown")
        }
        let centroid = text("zdccentroid")
        let position = position(centroid)
        if position == nil, !centroid.isEmpty {
            notices.add(table, line: line, "\(UpstreamText.quoted(id)): ZdcCentroid is not \"lat,lon\"; kept without a position")
        }
        let update = text("liftstateupdate")
        let station = text("zdcid")
        return FacilityUnit(unitID: id, facility: .elevator, status: status ?? .unknown,
                            since: update.isEmpty ? nil : ISO8601Time.instant(update, localTime: local),
                            description: text("liftreason"),
                            serving: [text("liftsituation"), text("liftdirection")].filter { !$0.isEmpty }.joined(separator: ", "),
                            location: .init(stationRef: station.isEmpty ? nil : station, position: position))
    }

    /// `48.8759,2.3252` → that point; nil for any other text.
    static func position(_ centroid: String) -> Coordinate? {
        let parts = centroid.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        return Coordinate(latitude: UpstreamText.trimmed(String(parts[0])), longitude: UpstreamText.trimmed(String(parts[1])))
    }
}
