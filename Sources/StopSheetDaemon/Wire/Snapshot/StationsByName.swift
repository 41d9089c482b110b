import StopSheetCore

/// The order of the `stations` answer: by name as people of the feed's language sort names —
/// Unicode collation through ICU (`Collator`), in the language of the feed (`feed_lang`, else
/// `agency_lang`), else the root collation — then, for names that collate the same, by id in
/// byte order. So `Háje` comes before `Hradčanská`, `Černý Most` sits among the C's, and in Czech
/// `Chodov` follows `Hradčanská`. Made once per station load, on the thread that installs it.
enum StationsByName {
    /// Positions in `directory.stations`, in that order. A collated comparison costs microseconds
    /// (ICU), so each distinct name is compared, once sorted, and the stations
    /// then by their name's rank: a feed's same-named stations cost nothing more.
    static func order(_ directory: StationDirectory?) -> [Int] {
        guard let stations = directory?.stations, !stations.isEmpty else { return [] }
        let collator = Collator(language: directory?.language)
        let distinct = Array(Set(stations.map(\.name))).sorted { collator.compare($0, $1) < 0 }
        // Names that collate the same (canonically equivalent spellings) share a rank.
        var rank: [String: Int] = [:]
        for (position, name) in distinct.enumerated() {
            rank[name] = position > 0 && collator.compare(distinct[position - 1], name) == 0 ? rank[distinct[position - 1]]! : position
        }
        let ranks = stations.map { rank[$0.name]! }
        return stations.indices.sorted { a, b in
            ranks[a] != ranks[b] ? ranks[a] < ranks[b] : Array(stations[a].id.utf8).lexicographicallyPrecedes(stations[b].id.utf8)
        }
    }
}
