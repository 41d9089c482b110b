import StopSheetCore

/// The results laid out for people. Every string from the daemon (and so from upstream) reaches
/// the page through `TerminalText`; missing or ill-typed members are skipped, never trapped on,
/// so a newer daemon's extra members and an older one's missing ones both render.
enum Rendering {
    // MARK: sheet

    static func sheet(_ sheet: JSON, station: JSON?, into page: inout Page) {
        guard sheet["stopType"]?.stringValue == "train" else {
            page.paragraph(busStop(sheet))
            return
        }
        header(name: sheet["stationName"]?.stringValue, id: sheet["stationId"]?.stringValue, routes: station?["routes"], lines: station?["lines"], into: &page)
        let button = sheet["accessibilityButton"]
        page.paragraph(summary(sheet))
        for note in freshness(sheet["data"]) { page.paragraph(note) }

        if let dialog = sheet["alertGlyph"]?["alert"] {
            page.blank()
            page.paragraph("\(dialog["title"]?.stringValue ?? "Train service alerts")")
            if let alerts = sheet["alerts"]?.arrayValue, !alerts.isEmpty {
                for (index, alert) in alerts.enumerated() {
                    if index > 0 { page.blank() }
                    self.alert(alert, indent: 2, details: false, into: &page)
                }
            } else {
                page.paragraphs(dialog["message"]?.stringValue ?? "", indent: 2)
            }
        }
        if let dialog = button?["alert"] {
            page.blank()
            page.paragraph("\(dialog["title"]?.stringValue ?? "Accessibility")")
            page.paragraphs(dialog["message"]?.stringValue ?? "", indent: 2)
        }
        stepFreeNow(button?["now"], into: &page)
        advisories(button?["advisories"], into: &page)
    }

    /// The verdict's line, and one per platform without step-free entry or exit.
    static func stepFreeNow(_ now: JSON?, into page: inout Page) {
        guard let verdict = StepFreeNowLines.verdict(now) else { return }
        page.paragraph(verdict, indent: 2)
        for loss in StepFreeNowLines.losses(now) { page.paragraph(loss, indent: 4) }
    }

    /// `Bus stop 1106: …`, for a sheet that is not a train station's.
    static func busStop(_ sheet: JSON) -> TerminalText {
        "Bus stop \(sheet["stopId"]?.stringValue ?? "?"): bus stops have no train alerts and no accessibility button."
    }

    /// `8 train service alerts · step-free access`: the glyph and the button, in words; alerts
    /// that never loaded are said to be so, never shown as none.
    static func summary(_ sheet: JSON) -> TerminalText {
        let button = sheet["accessibilityButton"]
        let alertsLabel: TerminalText
        if let label = sheet["alertGlyph"]?["accessibilityLabel"]?.stringValue {
            alertsLabel = "\(label)"
        } else {
            alertsLabel = sheet["data"]?["alerts"]?["loaded"] == .bool(false) ? "train alerts not loaded yet" : "no train service alerts"
        }
        return "\(alertsLabel) · \(stepFreeWords(button?["stepFree"]?.stringValue, tone: button?["tone"]?.stringValue))"
    }

    /// `step-free access`, `no step-free access`, `step-free access unknown`: the tone, in words.
    static func stepFreeWords(_ stepFree: String?, tone: String? = nil, partial: Bool = false) -> TerminalText {
        switch stepFree ?? (tone == "good" ? "available" : tone == "warn" ? "none" : "unknown") {
        case "available": return partial ? "step-free access at some platforms" : "step-free access"
        case "none": return "no step-free access"
        default: return "step-free access unknown"
        }
    }

    /// A note when the data behind a sheet is missing or old (`data`, from daemons that send it).
    static func freshness(_ data: JSON?) -> [TerminalText] {
        freshnessSources.compactMap { key, what in
            guard let entry = data?[key] else { return nil }
            if entry["loaded"] == .bool(false) { return "\(what) has not loaded yet." }
            guard entry["stale"] == .bool(true) else { return nil }
            let age = entry["ageSeconds"]?.intValue.map { " (loaded \(duration($0)) ago)" } ?? ""
            return "\(what) is out of date\(age)."
        }
    }

    static let freshnessSources = [("alerts", "Train alert data"), ("stations", "Station data")]

    static func duration(_ seconds: Int) -> TerminalText {
        switch seconds {
        case ..<120: return "\(seconds) s"
        case ..<7200: return "\(seconds / 60) min"
        case ..<172_800: return "\(seconds / 3600) h"
        default: return "\(seconds / 86_400) days"
        }
    }

    /// Accessibility advisories (elevator outages and returns to service), when the daemon
    /// sends them.
    static func advisories(_ advisories: JSON?, into page: inout Page) {
        guard let advisories = advisories?.arrayValue, !advisories.isEmpty else { return }
        page.blank()
        page.paragraph("Accessibility advisories")
        for (index, advisory) in advisories.enumerated() {
            if index > 0 { page.blank() }
            let lead: TerminalText = advisory["restored"] == .bool(true) ? "Back in service:" : kindWord(advisory["kind"]?.stringValue)
            page.paragraph("\(advisory["headline"]?.stringValue ?? "")", indent: 2, hangingIndent: 4, lead: lead)
            if let period = AlertDates.period(start: advisory["start"], end: advisory["end"]) { page.paragraph(period, indent: 4) }
            page.paragraphs(advisory["description"]?.stringValue ?? "", indent: 4)
        }
    }

    static func kindWord(_ kind: String?) -> TerminalText {
        switch kind {
        case "active": return "Active:"
        case "planned": return "Planned:"
        default: return "Advisory:"
        }
    }

    // MARK: alerts

    /// One alert: the dialog's own wording (`Active train alert: <headline>`), its dates, then its
    /// description; with `details`, what it applies to, CTA's impact, its id and link.
    static func alert(_ alert: JSON, indent: Int, details: Bool, into page: inout Page) {
        page.paragraph("\(alert["headline"]?.stringValue ?? "")", indent: indent, hangingIndent: indent + 2, lead: alertLead(alert["kind"]?.stringValue))
        if let period = AlertDates.period(start: alert["start"], end: alert["end"]) { page.paragraph(period, indent: indent + 2) }
        if details {
            var facts = scopes(alert["scopes"])
            if let impact = alert["impact"]?.stringValue { facts.append("\(impact)") }
            if alert["major"] == .bool(true) { facts.append("major alert") }
            if let severity = alert["severity"], case .number(let text) = severity { facts.append("severity \(text)") }
            if let id = alert["id"]?.stringValue { facts.append("alert \(id)") }
            page.words(list(facts, comma: false), indent: indent + 2)
        }
        page.paragraphs(alert["description"]?.stringValue ?? "", indent: indent + 2)
        if details, let url = alert["url"]?.stringValue { page.link(TerminalText(url), indent: indent + 2) }
    }

    /// `Active train alert:`: the dialog's word for an alert of that kind.
    static func alertLead(_ kind: String?) -> TerminalText {
        switch kind {
        case "active": return "Active train alert:"
        case "planned": return "Planned train alert:"
        default: return "Train alert:"
        }
    }

    /// `Blue Line`, `all lines`, `station 40380`: where an alert applies.
    static func scopes(_ scopes: JSON?) -> [TerminalText] {
        (scopes?.arrayValue ?? []).compactMap { scope -> TerminalText? in
            let id = scope["id"]?.stringValue ?? "?"
            switch scope["type"]?.stringValue {
            case "systemwide": return "all lines"
            case "route": return LineNames.name(id)
            case "station": return "station \(id)"
            case "routeType": return "all route_type \(scope["routeType"]?.intValue.map(String.init) ?? "?") lines"
            case "agency": return "agency \(id)"
            default: return nil
            }
        }
    }

    static func alerts(_ result: JSON, station: JSON?, into page: inout Page) {
        let alerts = result["alerts"]?.arrayValue ?? []
        let count: TerminalText = alerts.isEmpty ? "No train service alerts" : alerts.count == 1 ? "1 train service alert" : "\(alerts.count) train service alerts"
        if let stationID = result["stationId"]?.stringValue {
            header(name: station?["stationName"]?.stringValue, id: stationID, routes: station?["routes"], lines: station?["lines"], into: &page)
            page.paragraph("\(count) for this station")
        } else {
            page.paragraph("\(count)")
        }
        for alert in alerts {
            page.blank()
            self.alert(alert, indent: 0, details: true, into: &page)
        }
    }

    // MARK: stations

    /// One station a line, by name (same-named ones together, told apart by their lines), then id;
    /// `named`: the NAME the list was cut to (`StationLookup.filtered`), for when none is left.
    static func stations(_ result: JSON, named name: String?, into page: inout Page) {
        let stations = result["stations"]?.arrayValue ?? []
        if let name, stations.isEmpty { page.paragraph("No station's name contains \u{201C}\(TerminalText(name))\u{201D}.") }
        let sorted = stations.sorted { a, b in
            let (nameA, nameB) = ((a["stationName"]?.stringValue ?? "").lowercased(), (b["stationName"]?.stringValue ?? "").lowercased())
            if nameA != nameB { return nameA < nameB }
            return (a["stationId"]?.stringValue ?? "") < (b["stationId"]?.stringValue ?? "")
        }
        for station in sorted {
            let id = TerminalText(station["stationId"]?.stringValue ?? "?")
            var words = [TerminalText(id.description.padding(to: 5))] + Page.words(TerminalText(station["stationName"]?.stringValue ?? "?"))
            let lines = LineNames.names(station["routes"], lines: station["lines"])
            words += lines.enumerated().map { index, line in
                (index == 0 ? "(" : "") + line + (index == lines.count - 1 ? ")" : ",")
            }
            words += ["·"] + Page.words(stepFreeWords(station["stepFree"]?.stringValue, partial: station["partial"] == .bool(true)))
            page.words(words, hangingIndent: 6)
        }
    }

    // MARK: station

    /// `Western (Blue Line) 40220`: the name, the lines that tell same-named stations apart, the id.
    static func header(name: String?, id: String?, routes: JSON?, lines described: JSON? = nil, into page: inout Page) {
        var words = Page.words(TerminalText(name ?? id ?? "?"))
        let lines = LineNames.names(routes, lines: described)
        if !lines.isEmpty {
            // Each line name stays whole: "Purple Line Express" never breaks across lines.
            words += lines.enumerated().map { index, line in
                (index == 0 ? "(" : "") + line + (index == lines.count - 1 ? ")" : ",")
            }
        }
        // Before stations load, the name may be the id itself.
        if let id, let name, name != id { words.append(TerminalText(id)) }
        page.words(words, hangingIndent: 2)
    }

    static func station(_ station: JSON, into page: inout Page) {
        header(name: station["stationName"]?.stringValue, id: station["stationId"]?.stringValue, routes: station["routes"], lines: station["lines"], into: &page)
        let stepFree = stepFreeWords(station["stepFree"]?.stringValue, partial: station["partial"] == .bool(true))
        page.paragraph("\(stepFree)")
        let platforms = station["platforms"]?.arrayValue ?? []
        if !platforms.isEmpty {
            page.blank()
            page.paragraph("Platforms")
            let columns: [[TerminalText]] = platforms.map { platform in
                [TerminalText(platform["stopId"]?.stringValue ?? "?"), direction(platform["direction"]?.stringValue), platformStepFree(platform["stepFree"])]
            }
            let widths = (0..<3).map { column in columns.map { Page.displayWidth($0[column].description) }.max() ?? 0 }
            for (platform, cells) in zip(platforms, columns) {
                let lead = (0..<3).map { cells[$0].description.padding(to: widths[$0]) }.joined(separator: "  ") + " "
                let hanging = 2 + widths.reduce(0, +) + 2 * 3
                page.words([TerminalText(lead)] + list(LineNames.names(platform["routes"], lines: station["lines"]), comma: true), indent: 2, hangingIndent: hanging)
            }
        }
        if station["now"] != nil { page.blank() }
        stepFreeNow(station["now"], into: &page)
        advisories(station["advisories"], into: &page)
    }

    static func direction(_ code: String?) -> TerminalText {
        switch code {
        case "N": return "northbound"
        case "S": return "southbound"
        case "E": return "eastbound"
        case "W": return "westbound"
        case nil: return ""
        case let code?: return TerminalText(code)
        }
    }

    static func platformStepFree(_ value: JSON?) -> TerminalText {
        switch value {
        case .bool(true): return "step-free"
        case .bool(false): return "not step-free"
        default: return "step-free unknown"
        }
    }

    /// Words for `Page.words`, each item kept whole: `Blue Line,` `Pink Line` with a comma,
    /// else `Blue Line` `·` `alert 23322`.
    static func list(_ items: [TerminalText], comma: Bool) -> [TerminalText] {
        items.enumerated().flatMap { index, item -> [TerminalText] in
            guard index < items.count - 1 else { return [item] }
            return comma ? [item + ","] : [item, "·"]
        }
    }

    // MARK: anything else (health, version, refresh)

    /// `key: value` lines, nested objects indented under their key, arrays as `- item`.
    static func outline(_ value: JSON, indent: Int = 0, into page: inout Page) {
        switch value {
        case .object(let object):
            for member in object.members {
                switch member.value {
                case .object, .array:
                    page.paragraph("\(member.key):", indent: indent)
                    outline(member.value, indent: indent + 2, into: &page)
                default:
                    page.paragraph(scalar(member.value), indent: indent, hangingIndent: indent + 4, lead: "\(member.key):")
                }
            }
        case .array(let elements):
            if elements.isEmpty { page.paragraph("(none)", indent: indent) }
            for element in elements {
                switch element {
                case .object, .array:
                    page.paragraph("-", indent: indent)
                    outline(element, indent: indent + 2, into: &page)
                default:
                    page.paragraph(scalar(element), indent: indent, hangingIndent: indent + 2, lead: "-")
                }
            }
        default:
            page.paragraph(scalar(value), indent: indent)
        }
    }

    static func scalar(_ value: JSON) -> TerminalText {
        if case .string(let text) = value { return TerminalText(text) }
        return TerminalText(value.encodedString)
    }
}
