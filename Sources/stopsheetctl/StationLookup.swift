import StopSheetClient
import StopSheetCore

/// Stations found by name in a `stations` result: for `stations NAME` (text and `--json` alike)
/// and for the did-you-mean when a name stands where a stop id goes (`sheet Clark/Lake`).
enum StationLookup {
    /// The stations whose name contains `name`, in any case.
    static func named(_ name: String, in list: Answer.Stations) -> [Answer.StationSummary] {
        let wanted = name.lowercased()
        return list.stations.filter { $0.stationName.lowercased().contains(wanted) }
    }

    /// `list` with only the stations `named` keeps, and their `count`: the JSON as sent (for
    /// `--json`) cut the same way, member by member.
    static func filtered(_ list: Reply<Answer.Stations>, named name: String) -> Reply<Answer.Stations> {
        typealias Keys = Answer.Stations.CodingKeys
        let wanted = name.lowercased()
        guard case .object(var object) = list.json, case .array(let entries)? = object[Keys.stations.rawValue] else { return list }
        let kept = zip(list.value.stations, entries).filter { $0.0.stationName.lowercased().contains(wanted) }.map(\.1)
        object.members = object.members.map { member in
            switch Keys(rawValue: member.key) {
            case .stations: (key: member.key, value: .array(kept))
            case .count: (key: member.key, value: .int(kept.count))
            default: member
            }
        }
        return (try? Reply(.object(object), of: Methods.Stations.name)) ?? list
    }

    /// `did you mean 40380 Clark/Lake?` for text that is not a stop id: the stations of that
    /// name, else those whose name contains it, else the nearest name, else the nearest station
    /// id (`place-ogmn` → `place-ogmnl`); with none near, how to find one. What a STOP_ID is
    /// follows the daemon's ids: "a number" only when every station's id is one (CTA's).
    /// Nil when the stations cannot be had.
    static func didYouMean(_ text: String, client: StopSheetClient, command: String) -> String? {
        guard let list = try? client.stations().value else { return nil }
        let stations = list.stations
        var found = stations.filter { $0.stationName.lowercased() == text.lowercased() }
        if found.isEmpty { found = named(text, in: list) }
        if found.isEmpty, let nearest = Hints.closest(to: text, among: stations.map(\.stationName)) {
            found = stations.filter { $0.stationName == nearest }
        }
        // An id is a code, not a word: one typo away, or it names another station.
        if found.isEmpty, let nearest = Hints.closest(to: text, among: stations.map(\.stationId), maxDistance: 1) {
            found = stations.filter { $0.stationId == nearest }
        }
        let numbers = !stations.isEmpty && stations.allSatisfy { isStopIDShaped($0.stationId) }
        guard !found.isEmpty else {
            return numbers ? "a STOP_ID is a number; stopsheetctl stations NAME finds a station's"
                : "no station has that id or a name like it; stopsheetctl stations NAME finds a station's id"
        }
        let shown = found.prefix(5).map { station -> String in
            let lines = LineNames.names(station.routes).map(\.description).joined(separator: ", ")
            return "\(station.stationId) \(station.stationName)" + (found.count > 1 && !lines.isEmpty ? " (\(lines))" : "")
        }
        let more = found.count > shown.count ? ", …" : ""
        let what = numbers ? "A STOP_ID is a number" : "A STOP_ID is a station's or a stop's id"
        return "did you mean \(shown.joined(separator: ", "))\(more)? \(what): stopsheetctl \(command) \(found[0].stationId)"
    }

    /// Whether `text` can be a CTA stop id at all: train and bus stop ids are numbers.
    static func isStopIDShaped(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
