import Foundation
import StopSheetCore

/// The order of the `stations` answer: by name as people of the feed's language sort names —
/// Unicode collation through Foundation (ICU), in the language of the feed's agencies
/// (`agency_lang`), else the root collation — then, for names that collate the same, by id in
/// byte order. So `Háje` comes before `Hradčanská`, `Černý Most` sits among the C's, and in Czech
/// `Chodov` follows `Hradčanská`. Made once per station load, on the thread that installs it.
enum StationsByName {
    /// Positions in `directory.stations`, in that order.
    static func order(_ directory: StationDirectory?) -> [Int] {
        guard let stations = directory?.stations, !stations.isEmpty else { return [] }
        let locale = Locale(identifier: directory?.agencies.lazy.compactMap(\.language).first ?? "")
        let names = stations.map(\.name)
        return stations.indices.sorted { a, b in
            switch names[a].compare(names[b], options: [], range: nil, locale: locale) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: return Array(stations[a].id.utf8).lexicographicallyPrecedes(stations[b].id.utf8)
            }
        }
    }
}
