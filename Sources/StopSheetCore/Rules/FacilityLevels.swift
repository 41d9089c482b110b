/// The two levels a unit joins, in WMATA's words: its incidents' `LocationDescription`
/// ("Elevator between Street and Mezzanine") and its GTFS elevator end nodes' names ("Top of
/// Elevator Between Street and Mezzanine") say them alike, which is how an incident finds its
/// pathway (`StepFreeNow.place`).
public enum FacilityLevels {
    /// `["street", "mezzanine"]`, lowercased, in the order written; none without
    /// "between … and …". A remark after it ("(Shady Grove side)", ", east") is not a level.
    public static func levels(_ text: String) -> [String] {
        let words = AlertWords.words(String(text.prefix { !"(,;.".contains($0) }))
        guard let between = words.firstIndex(of: "between"),
              let and = words[(between + 1)...].firstIndex(of: "and"), and > between + 1, and + 1 < words.count
        else { return [] }
        return [words[(between + 1)..<and].joined(separator: " "), words[(and + 1)...].joined(separator: " ")]
    }
}
