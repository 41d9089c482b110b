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

    static func sheet(_ stopID: String, _ sheet: JSON, previous: JSON?) -> Event? {
        guard sheet != .null else {
            return previous == .null ? nil : Event(headline: "\(stopID): no longer a known stop")
        }
        guard sheet["stopType"]?.stringValue == "train" else {
            return previous == nil ? Event(headline: Rendering.busStop(sheet)) : nil
        }
        let station = sheet["stationId"]?.stringValue ?? stopID
        let name = "\(sheet["stationName"]?.stringValue ?? stopID) (\(station)\(station == stopID ? "" : ", as \(stopID)"))"
        let headline: TerminalText = "\(name): \(Rendering.summary(sheet))"
        guard let previous, previous != .null else {
            return Event(headline: headline, details: Rendering.freshness(sheet["data"]))
        }
        let details = alertChanges(from: previous, to: sheet) + accessChanges(from: previous, to: sheet)
            + StepFreeNowLines.changes(from: previous, to: sheet) + freshnessChanges(from: previous, to: sheet)
        return details.isEmpty ? nil : Event(headline: headline, details: details)
    }

    static func health(_ health: JSON, previous: JSON?) -> Event? {
        let status = health["status"]?.stringValue ?? "?"
        let before = previous?["status"]?.stringValue
        let headline: TerminalText = before.map { $0 == status ? "health: \(status)" : "health: \($0) → \(status)" } ?? "health: \(status)"
        var details: [TerminalText] = []
        for cache in ["alerts", "stations"] {
            let entry = health[cache], old = previous?[cache]
            let loaded = entry?["loaded"] == .bool(true), error = entry?["lastError"]?.stringValue
            if previous == nil {
                if !loaded { details.append("\(cache): not loaded") }
                if let error { details.append("\(cache): last error: \(error)") }
                continue
            }
            if loaded != (old?["loaded"] == .bool(true)) { details.append("\(cache): \(loaded ? "loaded" : "not loaded")") }
            if error != old?["lastError"]?.stringValue {
                details.append(error.map { "\(cache): last error: \($0)" } ?? "\(cache): refreshing fine again")
            }
        }
        if previous != nil, details.isEmpty, before == status { return nil }
        return Event(headline: headline, details: details)
    }

    // MARK: - What changed

    /// Alerts that are no longer known are not removed ones: a daemon that lost them (restarted
    /// with a failing source) says nothing about them, and the freshness note says so.
    private static func alertChanges(from previous: JSON, to sheet: JSON) -> [TerminalText] {
        guard sheet["data"]?["alerts"]?["loaded"] != .bool(false) else { return [] }
        let old = alerts(previous), new = alerts(sheet)
        let advisories = advisoryIDs(previous).union(advisoryIDs(sheet))
        let restored = restoredIDs(sheet).union(restoredIDs(previous))
        func describe(_ alert: JSON) -> TerminalText {
            let id = key(alert)
            let lead: TerminalText = !advisories.contains(id) ? Rendering.alertLead(alert["kind"]?.stringValue)
                : restored.contains(id) ? "accessibility advisory, back in service:" : "accessibility advisory:"
            return lead + " " + TerminalText(alert["headline"]?.stringValue ?? "")
        }
        var lines: [TerminalText] = []
        let oldKeys = Set(old.map(key)), newKeys = Set(new.map(key))
        for alert in new where !oldKeys.contains(key(alert)) { lines.append("added: " + describe(alert)) }
        for alert in old where !newKeys.contains(key(alert)) { lines.append("removed: " + describe(alert)) }
        for alert in new {
            guard let before = old.first(where: { key($0) == key(alert) }), before != alert else { continue }
            let (was, now) = (before["headline"]?.stringValue ?? "", alert["headline"]?.stringValue ?? "")
            // The new headline, then the old one under it: each cut to the width on its own.
            if was != now {
                lines += ["edited: " + describe(alert), "  was: " + TerminalText(was)]
            } else if before["kind"] != alert["kind"] {
                lines.append("edited: " + describe(alert) + " (was \(before["kind"]?.stringValue ?? "unknown"))")
            } else {
                lines.append("edited: " + describe(alert) + " (description or dates)")
            }
        }
        return lines
    }

    private static func accessChanges(from previous: JSON, to sheet: JSON) -> [TerminalText] {
        let (old, new) = (previous["accessibilityButton"], sheet["accessibilityButton"])
        let (oldTone, newTone) = (old?["tone"]?.stringValue ?? "?", new?["tone"]?.stringValue ?? "?")
        let words = { (button: JSON?) in Rendering.stepFreeWords(button?["stepFree"]?.stringValue, tone: button?["tone"]?.stringValue) }
        guard words(old) != words(new) || oldTone != newTone else { return [] }
        return [words(old) + " → " + words(new) + " (tone \(oldTone) → \(newTone))"]
    }

    /// A cache that loaded, went stale or came back: `sheet`'s own sentence, or that it is
    /// fresh again.
    private static func freshnessChanges(from previous: JSON, to sheet: JSON) -> [TerminalText] {
        Rendering.freshnessSources.compactMap { key, what in
            let (old, new) = (previous["data"]?[key], sheet["data"]?[key])
            guard old?["loaded"] != new?["loaded"] || old?["stale"] != new?["stale"] else { return nil }
            let note = Rendering.freshness(.object(JSONObject([(key, new ?? .null)]))).first
            return note ?? (old?["loaded"] == .bool(false) ? "\(what) has loaded." : "\(what) is up to date again.")
        }
    }

    private static func alerts(_ sheet: JSON) -> [JSON] { sheet["alerts"]?.arrayValue ?? [] }

    /// An alert's identity across two sheets: its id, else its headline.
    private static func key(_ alert: JSON) -> String { alert["id"]?.stringValue ?? "headline:" + (alert["headline"]?.stringValue ?? "") }

    private static func advisoryIDs(_ sheet: JSON) -> Set<String> {
        Set((sheet["accessibilityButton"]?["advisories"]?.arrayValue ?? []).compactMap { $0["alertId"]?.stringValue })
    }

    private static func restoredIDs(_ sheet: JSON) -> Set<String> {
        Set((sheet["accessibilityButton"]?["advisories"]?.arrayValue ?? []).filter { $0["restored"] == .bool(true) }.compactMap { $0["alertId"]?.stringValue })
    }
}
