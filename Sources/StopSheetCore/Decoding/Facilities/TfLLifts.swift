/// TfL's detailed `Lifts.csv` as an inventory (`--facilities-inventory-url`): it is never
/// needed (TfL's lift pathways carry the lift's id), but it names what each lift serves.
/// `StationUniqueId` is the lift's station; `serving` is `FriendlyName: <from> to <to>`, each end
/// the areas of `FromAreas`/`ToAreas` (`|`-separated StationPoints ids,
/// `<station>-<number>-<AreaName>-<AreaId>`) by their `AreaName`: `Lift 2: BookH to JubNB, Met2`.
enum TfLLifts {
    static let idColumn = "liftuniqueid"
    static let table = "Lifts.csv"

    static func decode(_ rows: [[String]], names: [String], limits: DecodingLimits) throws(DecodingFailure) -> (FacilityInventory, FeedNotices) {
        let records = CSVReader.dataRows(rows)
        try limits.check(itemCount: records.count)
        var notices = FeedNotices()
        var units: [FacilityInventory.Row] = []
        for (index, row) in records {
            func field(_ name: String) -> String {
                guard let column = names.firstIndex(of: name), column < row.count else { return "" }
                return UpstreamText.trimmed(row[column])
            }
            let id = field(idColumn), station = field("stationuniqueid")
            guard !id.isEmpty else {
                notices.add(table, line: index + 1, "LiftUniqueId is empty; skipped")
                continue
            }
            let ends = [field("fromareas"), field("toareas")].map { areas in
                areas.split(separator: "|").map { areaName(UpstreamText.trimmed(String($0)), station: station) }.joined(separator: ", ")
            }
            let route = ends.allSatisfy(\.isEmpty) ? "" : "\(ends[0]) to \(ends[1])"
            let name = field("friendlyname")
            units.append(.init(unitID: id, stopIDs: station.isEmpty ? [] : [station],
                               serving: UpstreamText.plain(name.isEmpty ? route : route.isEmpty ? name : "\(name): \(route)")))
        }
        return (FacilityInventory(rows: units), notices)
    }

    /// `940GZZLUWYP-1000257-BookH-8` → `BookH`, `910GROMFORD-1001243-RPL-5-6` → `RPL-5`; an id
    /// of another shape stays as it is.
    static func areaName(_ id: String, station: String) -> String {
        guard !station.isEmpty, id.hasPrefix(station + "-") else { return id }
        var parts = id.dropFirst(station.count + 1).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts.first!.allSatisfy(\.isNumber), parts.last!.allSatisfy(\.isNumber) else { return id }
        parts.removeFirst()
        parts.removeLast()
        return parts.joined(separator: "-")
    }
}
