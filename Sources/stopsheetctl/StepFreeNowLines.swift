import StopSheetClient
import StopSheetCore

/// The accessibility button's `now` (step-free access at this moment, per platform) in words:
/// one line for the verdict, one per platform that lacks step-free entry or exit and why, and for
/// `watch`, one per platform that loses or regains it. Every word of the verdict is the daemon's
/// (`Answer.StepFreeNow`): nothing here decides access. Every daemon string goes through
/// `TerminalText`.
enum StepFreeNowLines {
    /// `Step-free now: partial (from the station's pathways)`.
    static func verdict(_ now: Answer.StepFreeNow) -> TerminalText {
        var line: TerminalText = "Step-free now: \(now.stepFree.rawValue)"
        guard now.basis == .pathways else { return line + " (as reported; no pathways)" + withoutMap(now) }
        line = line + " (from the station's pathways)"
        let unresolved = now.outages.filter(\.isUnresolved)
        let alerts = unresolved.filter { $0.source == .alerts }.map { "alert \($0.alertId)" }
        if !alerts.isEmpty {
            line = line + "; an elevator outage names no elevator: " + TerminalText(alerts.joined(separator: ", "))
        }
        for outage in unresolved where outage.source == .facilities {
            line = line + "; lift " + TerminalText(outage.facilityId.value ?? "?") + " "
                + unplacedWords(outage.unplaced, facility: outage.facility, candidates: outage.candidates?.count ?? 0)
        }
        if let reason = now.reason { line = line + ". " + TerminalText(reason) }
        return line
    }

    /// Without a map, which elevators are out, in plain words, and that the map is not known:
    /// `: an elevator alert 99001 does not name is out, and the station's map is not known`, `: an
    /// elevator of the Western (Loop-bound) platform is out (alert 111489), and …`.
    /// Empty while `now` is complete: no elevator outage touches a platform.
    private static func withoutMap(_ now: Answer.StepFreeNow) -> TerminalText {
        // Complete: no outage touches a platform (a redundant or non-ADA unit is only listed).
        guard !now.complete else { return "" }
        let out = now.outages.compactMap { outage -> String? in
            guard outage.facility != .escalator, outage.status != .partiallyAvailable else { return nil }
            if outage.source == .facilities {
                return "\(outage.facility == .other ? "lift" : "elevator") \(outage.facilityId.value ?? "?") is \(statusWords(outage.status))"
            }
            guard outage.facility == .elevator else { return nil }
            let named = (outage.platforms ?? []).map { id in now.platforms.first { $0.stopId == id }?.name ?? id }
            guard let last = named.last else { return "an elevator alert \(outage.alertId) does not name is out" }
            let platforms = named.count == 1 ? "the \(last) platform" : "the " + named.dropLast().joined(separator: ", ") + " and \(last) platforms"
            return "an elevator of \(platforms) is out (alert \(outage.alertId))"
        }
        guard !out.isEmpty else { return "" }
        return TerminalText(": " + out.joined(separator: "; ") + ", and the station's map is not known")
    }

    /// Why a unit is on no pathway, in plain words: `is off the station's map (no such level
    /// there), so it changes no platform`, `could be either of 2 elevators between its two
    /// levels; a platform that needs one of them is not said`.
    static func unplacedWords(_ reason: Answer.UnplacedReason?, facility: Answer.Facility, candidates: Int) -> TerminalText {
        let lifts = facility == .escalator ? "escalators" : "elevators"
        // Only an elevator can take a platform's step-free access away.
        let platforms = facility == .escalator ? "" : "; a platform that needs \(candidates == 1 ? "it" : "one of them") is not said"
        let reason = switch reason {
        case .offTheMap?: "is off the station's map (no such level there), so it changes no platform"
        case .ambiguous?: "could be \(candidates == 2 ? "either" : "any") of \(candidates) \(lifts) between its two levels" + platforms
        case .noSuchStation?: "is at no station"
        case .noRuleMatched?, nil:
            candidates == 0 ? "matches no pathway"
                : "matches no pathway, so it could be " + (candidates == 1 ? "the station's one \(lifts.dropLast())" : "any of the station's \(candidates) \(lifts)") + platforms
        }
        return TerminalText(reason)
    }

    /// A `facilities` unit's place: `pathways A07_110126, by levels`, or why it has none.
    static func placement(_ unit: Answer.FacilityUnit) -> TerminalText {
        if let rule = unit.placedBy {
            let words = switch rule {
            case .inventory: "by the inventory's pathway"
            case .stopReference: "by the inventory's stop"
            case .id: "by its id"
            case .node: "by its node"
            case .levels: "by its levels"
            }
            return "pathways " + TerminalText(unit.pathways.joined(separator: ", ")) + ", " + TerminalText(words)
        }
        return "on no pathway: it " + unplacedWords(unit.unplaced, facility: unit.facility, candidates: unit.candidates?.count ?? 0)
    }

    /// How a unit reached its station, for the two joins a deployer tunes (the station table,
    /// `--facilities-radius`): `at this station by its position, 42 m from its nearest stop`;
    /// for a unit at none, the daemon's why. Nil for the other rules, which the feed states.
    static func join(_ unit: Answer.FacilityUnit) -> TerminalText? {
        if let why = unit.notJoined { return TerminalText(why) }
        switch unit.joinedBy {
        case .table?: return "at this station by the station table"
        case .position?: return "at this station by its position" + (unit.distance.map { TerminalText(", \($0) m from its nearest stop") } ?? "")
        default: return nil
        }
    }

    /// `Park Street & North platform: no step-free entry or exit (Elevator 963 out)`, for each
    /// platform without step-free entry or exit, and `…: step-free entry and exit unknown (lift
    /// A03N04 status unknown)` for each that nothing decides.
    static func losses(_ now: Answer.StepFreeNow) -> [TerminalText] {
        now.platforms.compactMap { platform in
            if let lost = missing(platform, in: now) { return "\(label(platform, in: now)): no step-free \(lost) (\(reason(now)))" }
            if let unknown = undecided(platform, in: now) { return "\(label(platform, in: now)): step-free \(unknown) unknown (\(reason(now)))" }
            return nil
        }
    }

    /// Which way is step-free now (issue 51), for each platform some of whose ways work and some
    /// not: `Metro Center, Red Line Track 2 Platform platform: step-free from Entrance A only;
    /// the way from Entrance B is out.` A way works when the daemon says both its entry and exit
    /// (`via`); one with either `false` is out, one with either `null` may be.
    static func ways(_ now: Answer.StepFreeNow) -> [TerminalText] {
        now.platforms.compactMap { platform in
            guard let via = platform.via else { return nil }
            let working = via.filter { $0.entry.value == true && $0.exit.value == true }
            let out = via.filter { $0.entry.value == false || $0.exit.value == false }
            let unsure = via.filter { !working.contains($0) && !out.contains($0) }
            guard !working.isEmpty, working.count < via.count else { return nil }
            var line = label(platform, in: now) + ": step-free from " + wayNames(working) + " only"
            if !out.isEmpty { line = line + "; the way from " + wayNames(out) + " is out" }
            if !unsure.isEmpty { line = line + "; the way from " + wayNames(unsure) + " may be out" }
            return line + "."
        }
    }

    /// `Entrance A and Entrance B`, `A, B and C`: each way's name, else its id.
    private static func wayNames(_ ways: [Answer.StepFreeWay]) -> TerminalText {
        let names = ways.map { $0.name.isEmpty ? $0.id : $0.name }
        let text = names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
        return TerminalText(text)
    }

    /// One line per lift-status unit listed (`--facilities-url`): the unit, what the feed says of
    /// it (what it serves, why it is out), since when and when it is expected back.
    /// `Elevator A03N04 out: Elevator between street and mezzanine: Modernization; since Thu 10 Sep 2026 05:30, expected back Sat 31 Oct 2026 23:59`.
    static func units(_ now: Answer.StepFreeNow) -> [TerminalText] {
        now.outages.filter { $0.source == .facilities }.map { outage in
            unit(facility: outage.facility, id: outage.facilityId.value ?? "?", status: outage.status, description: outage.description,
                 since: outage.since.value, expectedBack: outage.expectedBack.value)
        }
    }

    /// One unit's line (`units`, and `facilities`' listing).
    static func unit(facility: Answer.Facility, id: String, status: Answer.UnitStatus, description: String, since: String?,
                     expectedBack: String?) -> TerminalText {
        var line = unitName(facility, id) + " " + statusWords(status)
        if !description.isEmpty { line = line + ": " + TerminalText(description) }
        var times: [TerminalText] = []
        if let since { times.append("since " + AlertDates.moment(since)) }
        if let expectedBack { times.append("expected back " + AlertDates.moment(expectedBack)) }
        if !times.isEmpty { line = line + "; " + times.dropFirst().reduce(times[0]) { $0 + ", " + $1 } }
        return line
    }

    /// What `watch` says when a platform loses or regains step-free entry or exit, and when the
    /// verdict's word changes.
    static func changes(from previous: Answer.Sheet, to sheet: Answer.Sheet) -> [TerminalText] {
        guard let old = previous.accessibilityButton.value?.now, let new = sheet.accessibilityButton.value?.now, old != new else { return [] }
        var lines: [TerminalText] = []
        if old.stepFree != new.stepFree {
            lines.append("step-free now: \(old.stepFree.rawValue) → \(new.stepFree.rawValue)")
        }
        let oldPlatforms = Dictionary(old.platforms.map { ($0.stopId, $0) }, uniquingKeysWith: { first, _ in first })
        for platform in new.platforms {
            guard let before = oldPlatforms[platform.stopId], before.entry != platform.entry || before.exit != platform.exit else { continue }
            let name = label(platform, in: new)
            if let lost = missing(platform, in: new, joining: "and") {
                lines.append("\(name): lost step-free \(lost) (\(reason(new)))")
            } else if let unknown = undecided(platform, in: new) {
                lines.append("\(name): step-free \(unknown) unknown (\(reason(new)))")
            } else {
                lines.append("\(name): step-free entry and exit again")
            }
        }
        return lines
    }

    // MARK: -

    /// `entry`, `exit`, `entry or exit` (`no step-free entry or exit`; `lost step-free entry and
    /// exit`), or nil when the platform has both (or nothing says).
    private static func missing(_ platform: Answer.PlatformAccess, in now: Answer.StepFreeNow,
                                joining conjunction: TerminalText = "or") -> TerminalText? {
        // Without a map, a `false` is the station data's, which the spec's sentence already says.
        guard now.basis == .pathways else { return nil }
        switch (platform.entry.value, platform.exit.value) {
        case (false?, false?): return "entry \(conjunction) exit"
        case (false?, _): return "entry"
        case (_, false?): return "exit"
        default: return nil
        }
    }

    /// `entry`, `exit`, `entry and exit` that nothing decides (a lift of `unknown` status on the
    /// way; without a map, an elevator out that could be on it); nil when both are said, and on
    /// basis `stations` while no outage stands (the station data then gives no value).
    private static func undecided(_ platform: Answer.PlatformAccess, in now: Answer.StepFreeNow) -> TerminalText? {
        guard now.basis == .pathways || !now.complete else { return nil }
        switch (platform.entry.value, platform.exit.value) {
        case (nil, nil): return "entry and exit"
        case (nil, _): return "entry"
        case (_, nil): return "exit"
        default: return nil
        }
    }

    /// `Elevator A03N04`, `Escalator ES258X`, `Lift diid:…` (a unit of no stated kind).
    private static func unitName(_ facility: Answer.Facility, _ id: String) -> TerminalText {
        let kind = switch facility {
        case .elevator: "Elevator"
        case .escalator: "Escalator"
        case .other: "Lift"
        }
        return TerminalText(kind + " " + id)
    }

    private static func statusWords(_ status: Answer.UnitStatus) -> TerminalText {
        switch status {
        case .notAvailable: "out"
        case .partiallyAvailable: "partly available"
        case .unknown: "status unknown"
        case .available: "available"
        }
    }

    /// `Name platform`, with the stop id when another platform of the station has the same name.
    private static func label(_ platform: Answer.PlatformAccess, in now: Answer.StepFreeNow) -> TerminalText {
        let (name, id) = (platform.name, platform.stopId)
        let shared = now.platforms.filter { $0.name == name }.count > 1
        return shared || name.isEmpty ? "\(name.isEmpty ? "Platform" : name + " platform") \(id)" : "\(name) platform"
    }

    /// The outages that took out pathways (`Elevator 963 out`, `elevator out: alert 17`) or may
    /// have (`Elevator A03X02 out, not placed`), or that the pathways alone give none.
    private static func reason(_ now: Answer.StepFreeNow) -> TerminalText {
        if now.reason != nil { return "the station's map shows no street" }
        if now.basis == .stations { return "an elevator out; the station's map is not known" }
        // An unplaced escalator's candidates are escalators: never a platform's step-free way.
        let placed = now.outages.filter { outage in
            (outage.pathways.isEmpty ? outage.candidates?.isEmpty == false && outage.facility != .escalator : true) && outage.status != .partiallyAvailable
        }
        guard !placed.isEmpty else { return "no step-free way in the station's pathways" }
        return TerminalText(placed.map { outage -> String in
            let unplaced = outage.pathways.isEmpty ? ", not placed" : ""
            if outage.source == .facilities { return "\(unitName(outage.facility, outage.facilityId.value ?? "?")) \(statusWords(outage.status))" + unplaced }
            if let number = outage.facilityId.value { return (outage.facility == .escalator ? "Escalator " : "Elevator ") + number + " out" + unplaced }
            return (outage.facility == .other ? "facility" : outage.facility.rawValue) + " out: alert " + outage.alertId + unplaced
        }.joined(separator: ", "))
    }
}
