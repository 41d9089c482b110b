/// Where an elevator alert's outage is among a station's platforms when the station has no map
/// (basis `stations`): CTA publishes no elevator ids and no map, and names each elevator in its
/// alerts' prose, most often by the direction its platform serves ("The Loop-bound platform
/// elevator at the Western Brown Line station", "The Howard-, Kimball- and Linden-bound platform
/// elevator at Belmont"). The first rule that names a platform places the outage:
/// 1. `direction`: the words before each "bound" of the headline or description (back to a word
///    such as "the", "from" or "platform"; the station's own name aside) name each platform one
///    of whose direction words is among them. A platform's direction words are those of the
///    "…-bound" part of its name (CTA's L stops `STOP_NAME`: `Belmont (Kimball-Linden-bound)`,
///    `Clark/Lake (Forest Pk-bound)`) and of the headsigns of the trips that stop there (GTFS):
///    the station data's, never a list of terminals here, so a new terminal needs no release.
///    "Forest Park-bound" names `(Forest Pk-bound)` by the word they share.
/// 2. `line`: the words before "Line platform" ("Brown and Harlem-bound Green Line platform")
///    name the platforms of each line among them.
/// Hyphens and spaces fold (`AlertWords`: "Loop-bound", "Loop- bound" and "Loop bound" read
/// alike). An outage that says "exit-only" cuts only the named platforms' exit. An alert naming
/// no platform by either rule (a street, an entrance, a structure, or no place at all) is nil:
/// it could be any of the station's elevators.
public enum PlatformPlacement {
    public struct Placed: Hashable, Sendable {
        public var rule: OutagePlacementRule
        /// The stop ids of the platforms named, in the station's order.
        public var platforms: [String]
        /// Only their exit: an exit-only elevator.
        public var exitOnly: Bool
    }

    /// The platforms an elevator alert's outage names at a station without a map; nil when it
    /// names none.
    public static func place(_ outage: AlertOutage, at station: Station) -> Placed? {
        let stationWords = Set(AlertWords.words(station.name))
        let exitOnly = outage.prose.contains { AlertWords.contains($0, phrase: ["exit", "only"]) }
        let directions = Set(outage.prose.flatMap { phraseWords($0, before: { $0 == "bound" }) }).subtracting(stationWords)
        let byDirection = station.platforms.filter { !directionWords(of: $0).isDisjoint(with: directions) }
        if !byDirection.isEmpty { return Placed(rule: .direction, platforms: byDirection.map(\.stopID), exitOnly: exitOnly) }
        let lineWords = Set(outage.prose.flatMap { words in
            phraseWords(words) { index in (words[index] == "line" || words[index] == "lines") && index + 1 < words.count
                && (words[index + 1] == "platform" || words[index + 1] == "platforms") }
        })
        let named = station.platforms.filter { platform in platform.routes.contains { route in lineWords.contains { names($0, route, station) } } }
        if !named.isEmpty { return Placed(rule: .line, platforms: named.map(\.stopID), exitOnly: exitOnly) }
        return nil
    }

    /// A platform's direction words: those of the "…-bound" part of its name, "bound" aside,
    /// and those of its trips' headsigns.
    public static func directionWords(of platform: Platform) -> Set<String> {
        var words = Set(platform.headsigns.flatMap(AlertWords.words))
        // Each parenthesised part of the name apart: `Western (O'Hare Branch) (Forest Pk-bound)`.
        for part in (platform.name ?? "").split(separator: "(").dropFirst() {
            words.formUnion(phraseWords(AlertWords.words(String(part)), before: { $0 == "bound" }))
        }
        return words
    }

    /// The words just before each word `isEnd` holds for, back to a word that starts no name
    /// ("the", "platform", …), "and" aside: "the Howard-, Kimball- and Linden-bound" → howard,
    /// kimball, linden.
    private static func phraseWords(_ words: [String], before isEnd: (String) -> Bool) -> [String] {
        phraseWords(words) { isEnd(words[$0]) }
    }

    private static func phraseWords(_ words: [String], endingAt isEnd: (Int) -> Bool) -> [String] {
        var found: [String] = []
        for index in words.indices where isEnd(index) {
            var back = index - 1
            while back >= 0, index - back <= maxPhraseWords, !boundaries.contains(words[back]) {
                if words[back] != "and" && words[back] != "bound" { found.append(words[back]) }
                back -= 1
            }
        }
        return found
    }

    /// Whether `word` names the line `route`: its id (`RouteID.train`: "brown" is `Brn`), or the
    /// short or long name the feed gives it ("Line" aside).
    private static func names(_ word: String, _ route: RouteID, _ station: Station) -> Bool {
        if RouteID.train(word) == route || word == route.rawValue.lowercased() { return true }
        guard let line = station.lines.first(where: { $0.id == route }) else { return false }
        return [line.shortName, line.longName].contains { name in
            name.map { AlertWords.words($0).filter { $0 != "line" } == [word] } ?? false
        }
    }

    /// Words a direction or line phrase never runs across: what comes before it in CTA's prose.
    private static let boundaries: Set<String> = FacilityKind.elevator.words.union([
        "the", "a", "an", "from", "to", "at", "of", "for", "on", "in", "is", "are", "platform", "platforms",
        "only", "exit", "entry", "station", "line", "lines", "service", "out", "street", "via", "by", "take",
    ])
    /// The most words a phrase runs back: "Howard-, Kimball- and Linden-bound" is four.
    private static let maxPhraseWords = 8
}
