/// A lift-status body (`--facilities-url`), its format recognised from its content:
/// - SIRI-FM XML, read by the daemon into `MarkupElement`s (`decode(siri:)`);
/// - WMATA's `{"ElevatorIncidents": [...]}` (`WMATAElevatorIncidentsDecoder`);
/// - NYC Transit's ENE outage array (`NYCTOutagesDecoder`);
/// - TfL's `Disruptions/Lifts/v2` array, whose entries list `disruptedLiftUniqueIds`
///   (`TfLLiftDisruptionsDecoder`);
/// - Deutsche Bahn's FaSta array, whose first element has `equipmentnumber` (`DBFaStaDecoder`);
/// - Île-de-France Mobilités' "état des ascenseurs": the API's `{"total_count", "results"}`
///   JSON, its JSON export (an array whose first element has `liftid`), or the `;`-separated
///   CSV export whose first line names `ZdcId` and `liftStatus` (`IDFMLiftsDecoder`, `decode(csv:)`).
/// A row that cannot be used is a notice and is skipped; the rest load.
public enum FacilitiesDecoder {
    public enum Format: String, Hashable, Sendable, CaseIterable {
        case siriFM = "siri-fm", wmata, nyct, tfl, dbFaSta = "db-fasta", idfm

        /// Whether the feed says since when a unit is out; TfL's and FaSta's do not, and the
        /// daemon then counts from the load that first listed it (`FacilityData.sinceFirstSeen`).
        public var saysSince: Bool { self != .tfl && self != .dbFaSta }
    }

    public struct Feed: Hashable, Sendable {
        public var format: Format
        public var units: [FacilityUnit]
        /// When the publisher made the body, when it says (SIRI-FM's `ResponseTimestamp`).
        public var producedAt: Instant?
        public var notices: FeedNotices

        /// Each unit's description and serving are made plain here, for every format (`UpstreamText.plain`).
        public init(format: Format, units: [FacilityUnit], producedAt: Instant? = nil, notices: FeedNotices = FeedNotices()) {
            self.format = format
            self.units = units.map { unit in
                var unit = unit
                unit.description = UpstreamText.plain(unit.description)
                unit.serving = UpstreamText.plain(unit.serving)
                return unit
            }
            self.producedAt = producedAt
            self.notices = notices
        }

        // Equality is the synthesised one, every property; the hash takes the two that tell
        // feeds apart in practice.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(format)
            hasher.combine(units)
        }
    }

    /// A JSON body: WMATA's object, NYCT's array, TfL's, FaSta's or IDFM's API answer. `local`
    /// reads their times that carry no offset.
    public static func decode(json bytes: [UInt8], local: TimeZoneRules, limits: DecodingLimits = .init()) throws(DecodingFailure) -> Feed {
        let document = try UpstreamBody.json(bytes, limits: limits)
        if document["ElevatorIncidents"] != nil { return try WMATAElevatorIncidentsDecoder.decode(document, local: local, limits: limits) }
        if let rows = document.arrayValue, rows.isEmpty || rows.first?["equipment"] != nil {
            return try NYCTOutagesDecoder.decode(rows, local: local, limits: limits)
        }
        if let rows = document.arrayValue, rows.first?[TfLLiftDisruptionsDecoder.idsKey] != nil {
            return try TfLLiftDisruptionsDecoder.decode(rows, limits: limits)
        }
        if let rows = document.arrayValue, rows.first?[DBFaStaDecoder.idKey] != nil {
            return try DBFaStaDecoder.decode(rows, limits: limits)
        }
        if let rows = document.arrayValue, rows.first?[IDFMLiftsDecoder.idKey] != nil {
            return try IDFMLiftsDecoder.decode(records: rows, local: local, limits: limits)
        }
        if document["results"] != nil, document["total_count"] != nil {
            return try IDFMLiftsDecoder.decode(api: document, local: local, limits: limits)
        }
        if document.arrayValue != nil {
            throw .unrecognisedFormat("JSON array whose first element has neither 'equipment' (NYCT's ENE outages) nor '\(TfLLiftDisruptionsDecoder.idsKey)' (TfL's lift disruptions) nor '\(DBFaStaDecoder.idKey)' (DB's FaSta) nor '\(IDFMLiftsDecoder.idKey)' (IDFM's lifts)")
        }
        throw .unrecognisedFormat(UpstreamBody.describeRoot(document) + " (expected 'ElevatorIncidents', NYCT's ENE array, TfL's lift disruptions, DB's FaSta or IDFM's 'results')")
    }

    /// Whether a body that is neither XML nor JSON is IDFM's CSV export: its first line (after
    /// a byte order mark) names `ZdcId` and `liftStatus`, in any case.
    public static func isCSV(_ bytes: [UInt8]) -> Bool {
        IDFMLiftsDecoder.isCSV(bytes)
    }

    /// IDFM's CSV export (`isCSV`). `local` reads its times that carry no offset.
    public static func decode(csv bytes: [UInt8], local: TimeZoneRules, limits: DecodingLimits = .init()) throws(DecodingFailure) -> Feed {
        try IDFMLiftsDecoder.decode(csv: bytes, local: local, limits: limits)
    }

    /// A SIRI-FM document. Times without an offset are read in `local`.
    public static func decode(siri root: MarkupElement, local: TimeZoneRules, limits: DecodingLimits = .init()) throws(DecodingFailure) -> Feed {
        try SIRIFacilityMonitoringDecoder.decode(root, local: local, limits: limits)
    }

    /// Each row of a JSON table that is an object with an id under `idKey`, made into a value by
    /// `make` (the object, its id, its 1-based row); any other row is a notice and skipped.
    static func rows<Value>(_ rows: [JSON], table: String, idKey: String, limits: DecodingLimits, notices: inout FeedNotices,
                            _ make: (JSONObject, String, Int) -> Value) throws(DecodingFailure) -> [Value] {
        try limits.check(itemCount: rows.count)
        var values: [Value] = []
        values.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            guard let object = row.objectValue, let id = text(object[idKey]) else {
                notices.add(table, line: index + 1, "row has no \(idKey); skipped")
                continue
            }
            values.append(make(object, id, index + 1))
        }
        return values
    }

    /// A field's text, trimmed; nil when absent, null, not text or empty.
    static func text(_ value: JSON?) -> String? {
        guard let text = value?.scalarText.map(UpstreamText.trimmed), !text.isEmpty else { return nil }
        return text
    }
}
