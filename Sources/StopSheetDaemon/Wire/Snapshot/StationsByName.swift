import StopSheetCore

/// The order of the `stations` answer: by name as people of the feed's language sort names —
/// Unicode collation through ICU (`Collator`), in the language of the feed (`feed_lang`, else
/// `agency_lang`), else the root collation — then, for names that collate the same, by id in
/// byte order. So `Háje` comes before `Hradčanská`, `Černý Most` sits among the C's, and in Czech
/// `Chodov` follows `Hradčanská`. Made once per station load, on the thread that installs it.
enum StationsByName {
    /// Positions in `directory.stations`, in that order. A collated comparison costs microseconds
    /// (ICU), so each distinct name is compared, once sorted, and the stations are then put in
    /// their name's group: a feed's same-named stations cost no comparison of names. Each name is
    /// hashed once, and ids are compared as they are stored, not copied out.
    static func order(_ directory: StationDirectory?) -> [Int] {
        guard let stations = directory?.stations, !stations.isEmpty else { return [] }
        let collator = Collator(language: directory?.language)
        // Each station's name as the n-th distinct name met.
        var distinctByName: [String: Int] = [:]
        var distinct: [String] = []
        let nameOf = stations.map { station in
            if let known = distinctByName[station.name] { return known }
            distinctByName[station.name] = distinct.count
            distinct.append(station.name)
            return distinct.count - 1
        }
        let sorted = distinct.indices.sorted { collator.compare(distinct[$0], distinct[$1]) < 0 }
        // Names that collate the same (canonically equivalent spellings) share a group.
        var groupOf = Array(repeating: 0, count: distinct.count)
        var groups = 0
        for (position, name) in sorted.enumerated() {
            if position == 0 || collator.compare(distinct[sorted[position - 1]], distinct[name]) != 0 { groups += 1 }
            groupOf[name] = groups - 1
        }
        var members = Array(repeating: [Int](), count: groups)
        for index in stations.indices { members[groupOf[nameOf[index]]].append(index) }
        // The directory's order is by id already, as Swift compares strings; byte order differs
        // only outside ASCII, so sorting a group most often finds it in order.
        return members.flatMap { group in group.sorted { stations[$0].id.utf8.lexicographicallyPrecedes(stations[$1].id.utf8) } }
    }
}
