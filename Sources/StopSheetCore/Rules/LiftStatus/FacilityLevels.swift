/// The levels a unit joins, in WMATA's words: its incidents' `LocationDescription` ("Elevator
/// between street and mezzanine, east side") and its GTFS lift end nodes' `stop_desc` ("Top of
/// Elevator Between Street and  Mezzanine", two spaces as published) say them alike, which is how
/// an incident finds its pathway (`FacilityPlacement`). The one place level words are read: a
/// level as written, a location's name or description, a `levels.txt` level name.
public enum FacilityLevels {
    /// `["street", "mezzanine"]`: the two levels of "between … and …", lowercased, whitespace
    /// and punctuation made single spaces, in the order written. Without "between … and …", the
    /// one place the words name besides the kind of unit ("Garage elevator" → `["garage"]`), or
    /// none. A remark after a comma, semicolon, full stop or parenthesis ("(Shady Grove side)",
    /// ", east") is not a level.
    public static func levels(_ text: String) -> [String] {
        let words = AlertWords.words(String(text.prefix { !"(,;.".contains($0) }))
        if let between = words.firstIndex(of: "between"),
           let and = words[(between + 1)...].firstIndex(of: "and"), and > between + 1, and + 1 < words.count {
            return [words[(between + 1)..<and].joined(separator: " "), words[(and + 1)...].joined(separator: " ")]
        }
        let place = words.filter { !FacilityKind.unitWords.contains($0) }
        return place.isEmpty || words.contains("between") ? [] : [place.joined(separator: " ")]
    }

    /// A level's words, the one reading of a level for comparing two: as `levels` reads them
    /// (lower case, whitespace and punctuation aside), "level" aside too, so "Mezzanine Level",
    /// "mezzanine" and "MEZZANINE" are one level.
    public static func words(_ level: String) -> Set<String> {
        Set(AlertWords.words(level)).subtracting(["level"])
    }
}
