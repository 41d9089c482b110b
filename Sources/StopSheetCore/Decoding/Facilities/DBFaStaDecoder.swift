/// Deutsche Bahn's FaSta (`/fasta/v2/facilities`): a JSON array of every elevator and escalator
/// at DB's stations, in service or not, keyed by `equipmentnumber` (an integer).
///
/// - `state` `ACTIVE` is `available`, `INACTIVE` `notAvailable`, `UNKNOWN` `unknown`; another
///   word, or none, is `unknown` with a notice: a unit is never out on a word the feed does not use.
/// - `stateExplanation` ("under maintenance") is the unit's `description`; FaSta's own
///   `description` ("zu Gleis 1") is what it serves (`serving`); `type` its kind.
/// - FaSta names no stop of the station data: `stationnumber` is DB's own station number
///   (`Location.stationRef`), `geocoordY`/`geocoordX` the unit's latitude and longitude
///   (`Location.position`). A unit without either is kept (it is then at no station, and listed);
///   coordinates out of range are a notice and the unit is kept without a position.
/// - It gives no times: a unit is out since the daemon first saw it out (`Format.saysSince`).
///   MOTIS's `outOfService` extension, and every other member, is ignored.
/// - A row that is no object or has no `equipmentnumber` is a notice and skipped.
enum DBFaStaDecoder {
    static let table = "FaSta"
    static let idKey = "equipmentnumber"

    /// FaSta's three `state` words (upper case, as published; read in any case).
    static let statuses: [String: FacilityUnit.Status] = ["ACTIVE": .available, "INACTIVE": .notAvailable, "UNKNOWN": .unknown]

    static func decode(_ rows: [JSON], limits: DecodingLimits) throws(DecodingFailure) -> FacilitiesDecoder.Feed {
        var notices = FeedNotices()
        var late = FeedNotices()
        let units = try FacilitiesDecoder.rows(rows, table: table, idKey: idKey, limits: limits, notices: &notices) { object, unit, line in
            let word = FacilitiesDecoder.text(object["state"])
            let status = word.flatMap { statuses[$0.uppercased()] }
            if status == nil {
                late.add(table, line: line, "\(UpstreamText.quoted(unit)): state '\(UpstreamText.quoted(word ?? ""))' is none of ACTIVE, INACTIVE, UNKNOWN; read as unknown")
            }
            let latitude = FacilitiesDecoder.text(object["geocoordY"]), longitude = FacilitiesDecoder.text(object["geocoordX"])
            let position = latitude.flatMap { latitude in longitude.flatMap { Coordinate(latitude: latitude, longitude: $0) } }
            if position == nil, latitude != nil || longitude != nil {
                late.add(table, line: line, "\(UpstreamText.quoted(unit)): geocoordY/geocoordX is no position; kept without one")
            }
            return FacilityUnit(unitID: unit, facility: FacilityKind(feedWord: FacilitiesDecoder.text(object["type"])), status: status ?? .unknown,
                                description: FacilitiesDecoder.text(object["stateExplanation"]) ?? "",
                                serving: FacilitiesDecoder.text(object["description"]) ?? "",
                                location: .init(stationRef: FacilitiesDecoder.text(object["stationnumber"]), position: position))
        }
        return FacilitiesDecoder.Feed(format: .dbFaSta, units: units, notices: FeedNotices.merged(notices, late))
    }
}
