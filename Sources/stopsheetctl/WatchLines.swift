import StopSheetClient
import StopSheetCore

/// What `watch` prints for one sheet or health it is sent: a headline (the stop and its summary,
/// in `sheet`'s words) and, given what it showed before, one line per thing a person would see
/// change — alerts added, removed or edited by kind and headline, accessibility advisories named
/// as such, step-free access and tone, data that loaded or went stale. Nil when nothing visible
/// changed (a reconnect's fresh copy of the same sheet, a new age). Pure; any thread.
enum WatchLines {
    struct Event {
        var headline: TerminalText
        var details: [TerminalText] = []
    }

    /// What was last shown of a stop: nothing yet, a sheet, or that it is no longer known.
    enum Shown: Equatable {
        case sheet(Answer.Sheet)
        case unknownStop
    }

    /// `sheet` nil: the stop is no longer known.
    static func sheet(_ stopID: String, _ sheet: Answer.Sheet?, previous: Shown?) -> Event? {
        guard let sheet else {
            return previous == .unknownStop ? nil : Event(headline: "\(stopID): no longer a known stop")
        }
        guard sheet.stopType == .train else {
            return previous == nil ? Event(headline: Rendering.busStop(sheet)) : nil
        }
        let station = sheet.stationId ?? stopID
        let name = "\(sheet.stationName ?? stopID) (\(station)\(station == stopID ? "" : ", as \(stopID)"))"
        let headline: TerminalText = "\(name): \(Rendering.summary(sheet))"
        guard case .sheet(let previous)? = previous else {
            return Event(headline: headline, details: Rendering.freshness(sheet.data))
        }
        let details = alertChanges(from: previous, to: sheet) + accessChanges(from: previous, to: sheet)
            + StepFreeNowLines.changes(from: previous, to: sheet) + freshnessChanges(from: previous, to: sheet)
        return details.isEmpty ? nil : Event(headline: headline, details: details)
    }

    static func health(_ health: Answer.Health, previous: Answer.Health?) -> Event? {
        let status = health.status.rawValue
        let before = previous?.status.rawValue
        let headline: TerminalText = before.map { $0 == status ? "health: \(status)" : "health: \($0) → \(status)" } ?? "health: \(status)"
        var details: [TerminalText] = []
        typealias Caches = Answer.Health.CodingKeys
        for (cache, entry, old) in [(Caches.alerts, health.alerts, previous?.alerts), (Caches.stations, health.stations, previous?.stations)] {
            let name = cache.rawValue
            if !entry.configured {
                if old == nil { details.append("\(name): not configured") }
                continue
            }
            guard let old else {
                if !entry.loaded { details.append("\(name): not loaded") }
                if let error = entry.lastError.value { details.append("\(name): last error: \(error)") }
                continue
            }
            if entry.loaded != old.loaded { details.append("\(name): \(entry.loaded ? "loaded" : "not loaded")") }
            if entry.lastError != old.lastError {
                details.append(entry.lastError.value.map { "\(name): last error: \($0)" } ?? "\(name): refreshing fine again")
            }
        }
        if previous != nil, details.isEmpty, before == status { return nil }
        return Event(headline: headline, details: details)
    }

    // MARK: - What changed

    /// Alerts that are no longer known are not removed ones: a daemon that lost them (restarted
    /// with a failing source) says nothing about them, and the freshness note says so.
    private static func alertChanges(from previous: Answer.Sheet, to sheet: Answer.Sheet) -> [TerminalText] {
        guard sheet.data?.alerts.loaded != false else { return [] }
        let old = previous.alerts ?? [], new = sheet.alerts ?? []
        let advisories = advisoryIDs(previous).union(advisoryIDs(sheet))
        let restored = restoredIDs(sheet).union(restoredIDs(previous))
        func describe(_ alert: Answer.Alert) -> TerminalText {
            let lead: TerminalText = !advisories.contains(alert.id) ? Rendering.alertLead(alert.kind)
                : restored.contains(alert.id) ? "accessibility advisory, back in service:" : "accessibility advisory:"
            return lead + " " + TerminalText(alert.headline)
        }
        var lines: [TerminalText] = []
        let oldIDs = Set(old.map(\.id)), newIDs = Set(new.map(\.id))
        for alert in new where !oldIDs.contains(alert.id) { lines.append("added: " + describe(alert)) }
        for alert in old where !newIDs.contains(alert.id) { lines.append("removed: " + describe(alert)) }
        for alert in new {
            guard let before = old.first(where: { $0.id == alert.id }), before != alert else { continue }
            // The new headline, then the old one under it: each cut to the width on its own.
            if before.headline != alert.headline {
                lines += ["edited: " + describe(alert), "  was: " + TerminalText(before.headline)]
            } else if before.kind != alert.kind {
                lines.append("edited: " + describe(alert) + " (was \(before.kind.rawValue))")
            } else {
                lines.append("edited: " + describe(alert) + " (description or dates)")
            }
        }
        return lines
    }

    private static func accessChanges(from previous: Answer.Sheet, to sheet: Answer.Sheet) -> [TerminalText] {
        let (old, new) = (previous.accessibilityButton.value, sheet.accessibilityButton.value)
        let (oldTone, newTone) = (old?.tone.rawValue ?? "?", new?.tone.rawValue ?? "?")
        let (oldWords, newWords) = (Rendering.stepFreeWords(old?.stepFree), Rendering.stepFreeWords(new?.stepFree))
        guard oldWords != newWords || oldTone != newTone else { return [] }
        return [oldWords + " → " + newWords + " (tone \(oldTone) → \(newTone))"]
    }

    /// A cache that loaded, went stale or came back: `sheet`'s own sentence, or that it is
    /// fresh again.
    private static func freshnessChanges(from previous: Answer.Sheet, to sheet: Answer.Sheet) -> [TerminalText] {
        guard let old = previous.data, let new = sheet.data else { return [] }
        return [(old.alerts, new.alerts, Rendering.Source.alerts), (old.stations, new.stations, .stations)].compactMap { old, new, source in
            guard old.loaded != new.loaded || old.stale != new.stale else { return nil }
            return Rendering.freshness(new, of: source) ?? (old.loaded ? "\(source.words) is up to date again." : "\(source.words) has loaded.")
        }
    }

    private static func advisoryIDs(_ sheet: Answer.Sheet) -> Set<String> {
        Set((sheet.accessibilityButton.value?.advisories ?? []).map(\.alertId))
    }

    private static func restoredIDs(_ sheet: Answer.Sheet) -> Set<String> {
        Set((sheet.accessibilityButton.value?.advisories ?? []).filter(\.restored).map(\.alertId))
    }
}
