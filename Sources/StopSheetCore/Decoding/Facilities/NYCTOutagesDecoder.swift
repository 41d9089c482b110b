/// NYC Transit's `nyct_ene.json`: an array of current and upcoming elevator and escalator
/// outages. Every value is a string; times are `MM/DD/YYYY hh:mm:ss AM` in New York's wall clock.
/// The rows carry no GTFS ids: the inventory (`nyct_ene_equipments.json`) places each unit.
enum NYCTOutagesDecoder {
    static let table = "nyct_ene"

    static func decode(_ rows: [JSON], local: TimeZoneRules, limits: DecodingLimits) throws(DecodingFailure) -> FacilitiesDecoder.Feed {
        var notices = FeedNotices()
        var late = FeedNotices()
        let units = try FacilitiesDecoder.rows(rows, table: table, idKey: "equipment", limits: limits, notices: &notices) { object, unit, line in
            let type = FacilitiesDecoder.text(object["equipmenttype"])?.uppercased()
            let since = FacilitiesDecoder.text(object["outagedate"])
            let back = FacilitiesDecoder.text(object["estimatedreturntoservice"])
            let start = since.flatMap { wallClock($0) }.map(local.instant)
            if since != nil && start == nil { late.add(table, line: line, "\(unit): outagedate is not MM/DD/YYYY hh:mm:ss AM") }
            let serving = FacilitiesDecoder.text(object["serving"]) ?? ""
            let reason = FacilitiesDecoder.text(object["reason"]) ?? ""
            let ada = FacilitiesDecoder.text(object["ADA"])?.uppercased()
            return FacilityUnit(
                unitID: unit, facility: type == "EL" ? .elevator : type == "ES" ? .escalator : .other, status: .notAvailable,
                since: start, expectedBack: back.flatMap { wallClock($0) }.map(local.instant),
                isUpcoming: FacilitiesDecoder.text(object["isupcomingoutage"])?.uppercased() == "Y",
                description: reason.isEmpty ? serving : serving.isEmpty ? reason : "\(serving) (\(reason))",
                isADA: ada == "Y" ? true : ada == "N" ? false : nil)
        }
        notices = FeedNotices.merged(notices, late)
        return FacilitiesDecoder.Feed(format: .nyct, units: units, notices: notices)
    }

    /// `09/28/2026 10:00:00 PM` → 2026-09-28 22:00:00; nil for any other form.
    static func wallClock(_ text: String) -> WallClock? {
        var scanner = TimestampScanner(UpstreamText.trimmed(text))
        guard let month = scanner.digits(2), scanner.skip("/"), let day = scanner.digits(2), scanner.skip("/"),
              let year = scanner.digits(4), scanner.skip(" ")
        else { return nil }
        var wall = WallClock(year: year, month: month, day: day)
        guard scanner.clock(into: &wall), scanner.skip(" "), let meridiem = scanner.skip(anyOf: "AP"), scanner.skip("M"), scanner.isAtEnd,
              (1...12).contains(wall.hour)
        else { return nil }
        wall.hour = wall.hour % 12 + (meridiem == "P" ? 12 : 0)
        return wall.isValid ? wall : nil
    }
}
