import StopSheetCore

/// The accessibility button's `now` (step-free access at this moment, per platform) in words:
/// one line for the verdict, one per platform that lacks step-free entry or exit and why, and for
/// `watch`, one per platform that loses or regains it. Every daemon string goes through
/// `TerminalText`. A daemon without `now` gives no lines.
enum StepFreeNowLines {
    /// `Step-free now: partial (from the station's pathways)`.
    static func verdict(_ now: JSON?) -> TerminalText? {
        guard let now, let word = now["stepFree"]?.stringValue else { return nil }
        var line: TerminalText = "Step-free now: \(word)"
        line = line + (now["basis"]?.stringValue == "pathways" ? " (from the station's pathways)" : " (as reported; no pathways)")
        let unplaced = outages(now).filter { $0["facility"]?.stringValue == "elevator" && ($0["pathways"]?.arrayValue ?? []).isEmpty }
        if now["complete"] == .bool(false) {
            line = line + "; an elevator outage names no elevator: " + TerminalText(unplaced.compactMap { $0["alertId"]?.stringValue }.map { "alert \($0)" }.joined(separator: ", "))
        }
        return line
    }

    /// `Park Street & North platform: no step-free entry or exit (Elevator 963 out)`, for each
    /// platform without step-free entry or exit.
    static func losses(_ now: JSON?) -> [TerminalText] {
        platforms(now).compactMap { platform in
            guard let lost = missing(platform) else { return nil }
            return "\(label(platform, in: now)): no step-free \(lost) (\(reason(now)))"
        }
    }

    /// What `watch` says when a platform loses or regains step-free entry or exit, and when the
    /// verdict's word changes.
    static func changes(from previous: JSON?, to sheet: JSON?) -> [TerminalText] {
        let (old, new) = (previous?["accessibilityButton"]?["now"], sheet?["accessibilityButton"]?["now"])
        guard let old, let new, old != new else { return [] }
        var lines: [TerminalText] = []
        if let before = old["stepFree"]?.stringValue, let after = new["stepFree"]?.stringValue, before != after {
            lines.append("step-free now: \(before) → \(after)")
        }
        let oldPlatforms = Dictionary(platforms(old).map { ($0["stopId"]?.stringValue ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        for platform in platforms(new) {
            guard let before = oldPlatforms[platform["stopId"]?.stringValue ?? ""],
                  before["entry"] != platform["entry"] || before["exit"] != platform["exit"] else { continue }
            let name = label(platform, in: new)
            if let lost = missing(platform, joining: "and") {
                lines.append("\(name): lost step-free \(lost) (\(reason(new)))")
            } else {
                lines.append("\(name): step-free entry and exit again")
            }
        }
        return lines
    }

    // MARK: -

    private static func platforms(_ now: JSON?) -> [JSON] { now?["platforms"]?.arrayValue ?? [] }
    private static func outages(_ now: JSON?) -> [JSON] { now?["outages"]?.arrayValue ?? [] }

    /// `entry`, `exit`, `entry or exit` (`no step-free entry or exit`; `lost step-free entry and
    /// exit`), or nil when the platform has both (or nothing says).
    private static func missing(_ platform: JSON, joining conjunction: TerminalText = "or") -> TerminalText? {
        switch (platform["entry"], platform["exit"]) {
        case (.bool(false), .bool(false)): return "entry \(conjunction) exit"
        case (.bool(false), _): return "entry"
        case (_, .bool(false)): return "exit"
        default: return nil
        }
    }

    /// `Name platform`, with the stop id when another platform of the station has the same name.
    private static func label(_ platform: JSON, in now: JSON?) -> TerminalText {
        let name = platform["name"]?.stringValue ?? ""
        let id = platform["stopId"]?.stringValue ?? "?"
        let shared = platforms(now).filter { $0["name"]?.stringValue == name }.count > 1
        return shared || name.isEmpty ? "\(name.isEmpty ? "Platform" : name + " platform") \(id)" : "\(name) platform"
    }

    /// The outages that took out pathways (`Elevator 963 out`, `elevator out: alert 17`), or that
    /// the pathways alone give none.
    private static func reason(_ now: JSON?) -> TerminalText {
        let placed = outages(now).filter { !($0["pathways"]?.arrayValue ?? []).isEmpty }
        guard !placed.isEmpty else { return "no step-free way in the station's pathways" }
        return TerminalText(placed.map { outage -> String in
            let facility = outage["facility"]?.stringValue ?? "other"
            if let number = outage["facilityId"]?.stringValue { return (facility == "escalator" ? "Escalator " : "Elevator ") + number + " out" }
            return (facility == "other" ? "facility" : facility) + " out: alert " + (outage["alertId"]?.stringValue ?? "?")
        }.joined(separator: ", "))
    }
}
