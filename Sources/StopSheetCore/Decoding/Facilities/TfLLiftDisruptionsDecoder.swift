/// TfL's `Disruptions/Lifts/v2`: a JSON array of `{stationUniqueId, disruptedLiftUniqueIds: [...],
/// message}`, every listed lift out. It gives no times: a lift is back when it is no longer
/// listed, and it is out since the daemon first saw it out (`FacilityData.sinceFirstSeen`).
///
/// - One unit per distinct `LiftUniqueId`, trimmed (TfL's ids can end in a space), in the order
///   first listed; a lift in several entries gets every distinct message (made safe for
///   terminals first), in order, as its description, and every station that lists it.
/// - The ids are those of TfL's map: `FacilityPlacement` finds a lift's pathways by their ids'
///   ending `-lift-<LiftUniqueId>`; `stationUniqueId` is its station.
/// - An entry that is no object or lists no id is a notice and skipped.
enum TfLLiftDisruptionsDecoder {
    static let table = "Disruptions/Lifts"
    static let idsKey = "disruptedLiftUniqueIds"

    static func decode(_ rows: [JSON], limits: DecodingLimits) throws(DecodingFailure) -> FacilitiesDecoder.Feed {
        try limits.check(itemCount: rows.count)
        var notices = FeedNotices()
        var order: [String] = []
        var found: [String: (stations: [String], messages: [String])] = [:]
        for (index, row) in rows.enumerated() {
            let ids = (row[idsKey]?.arrayValue ?? []).compactMap { FacilitiesDecoder.text($0) }
            guard row.objectValue != nil, !ids.isEmpty else {
                notices.add(table, line: index + 1, "entry lists no \(idsKey); skipped")
                continue
            }
            let station = FacilitiesDecoder.text(row["stationUniqueId"])
            // Made plain before they are compared: TfL repeats a message with other line breaks and spaces.
            let message = FacilitiesDecoder.text(row["message"]).map(UpstreamText.plain)
            for id in ids {
                if found[id] == nil { order.append(id) }
                var unit = found[id] ?? ([], [])
                if let station, !unit.stations.contains(station) { unit.stations.append(station) }
                if let message, !unit.messages.contains(message) { unit.messages.append(message) }
                found[id] = unit
            }
        }
        try limits.check(itemCount: order.count)
        let units = order.map { id in
            let unit = found[id]!
            return FacilityUnit(unitID: id, facility: .elevator, status: .notAvailable, description: unit.messages.joined(separator: " / "),
                                  location: .init(stopIDs: unit.stations))
        }
        return FacilitiesDecoder.Feed(format: .tfl, units: units, notices: notices)
    }
}
