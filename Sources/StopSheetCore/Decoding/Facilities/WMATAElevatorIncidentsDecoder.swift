/// WMATA's `ElevatorIncidents` (Incidents API): outages only, every row out of service. Times
/// are Washington's wall clock without an offset (`2026-09-17T05:30:00`). The unit has no GTFS
/// id: it is placed by `StationCode` and the two levels its `LocationDescription` names
/// ("Elevator between Street and Mezzanine").
enum WMATAElevatorIncidentsDecoder {
    static let table = "ElevatorIncidents"

    static func decode(_ document: JSON, local: TimeZoneRules, limits: DecodingLimits) throws(DecodingFailure) -> FacilitiesDecoder.Feed {
        let rows = try JSONFields.array(document["ElevatorIncidents"], at: table)
        var notices = FeedNotices()
        let units = try FacilitiesDecoder.rows(rows, table: table, idKey: "UnitName", limits: limits, notices: &notices) { object, unit, _ in
            let facility = FacilityKind(feedWord: FacilitiesDecoder.text(object["UnitType"]))
            let location = FacilitiesDecoder.text(object["LocationDescription"]) ?? ""
            let symptom = FacilitiesDecoder.text(object["SymptomDescription"]) ?? ""
            return FacilityUnit(
                unitID: unit, facility: facility, status: .notAvailable,
                since: time(object["DateOutOfServ"], local), expectedBack: time(object["EstimatedReturnToService"], local),
                description: [location, symptom].filter { !$0.isEmpty }.joined(separator: ": "),
                location: .init(stationCode: FacilitiesDecoder.text(object["StationCode"]), levels: FacilityLevels.levels(location)))
        }
        return FacilitiesDecoder.Feed(format: .wmata, units: units, notices: notices)
    }

    private static func time(_ value: JSON?, _ local: TimeZoneRules) -> Instant? {
        FacilitiesDecoder.text(value).flatMap { ISO8601Time.instant($0, localTime: local) }
    }

}
