import StopSheetClient
import StopSheetCore

/// The results laid out for people, from the protocol's types (`Answer`). Every string from the
/// daemon (and so from upstream) reaches the page through `TerminalText`.
enum Rendering {
    // MARK: sheet

    static func sheet(_ sheet: Answer.Sheet, station: Answer.Station?, into page: inout Page) {
        guard sheet.stopType == .train else {
            page.paragraph(busStop(sheet))
            return
        }
        header(name: sheet.stationName, id: sheet.stationId, station: station?.summary, into: &page)
        page.paragraph(summary(sheet))
        for note in freshness(sheet.data) { page.paragraph(note) }

        if let dialog = sheet.alertGlyph.value?.alert {
            page.blank()
            page.paragraph("\(dialog.title)")
            if let alerts = sheet.alerts, !alerts.isEmpty {
                for (index, alert) in alerts.enumerated() {
                    if index > 0 { page.blank() }
                    self.alert(alert, indent: 2, details: false, into: &page)
                }
            } else {
                page.paragraphs(dialog.message, indent: 2)
            }
        }
        if let button = sheet.accessibilityButton.value {
            page.blank()
            page.paragraph("\(button.alert.title)")
            page.paragraphs(button.alert.message, indent: 2)
            stepFreeNow(button.now, into: &page)
            advisories(button.advisories, into: &page)
        }
    }

    /// The verdict's line, and one per platform without step-free entry or exit.
    static func stepFreeNow(_ now: Answer.StepFreeNow, into page: inout Page) {
        page.paragraph(StepFreeNowLines.verdict(now), indent: 2)
        for loss in StepFreeNowLines.losses(now) { page.paragraph(loss, indent: 4) }
        for way in StepFreeNowLines.ways(now) { page.paragraph(way, indent: 4) }
        for unit in StepFreeNowLines.units(now) { page.paragraph(unit, indent: 4) }
    }

    /// `facilities`: one line per station, then one per unit: its kind and id, its status, the
    /// pathways it is placed on, what it serves, the feed's text and its times; how a feed that
    /// names no stop of the station data reached the station, or why it is at none.
    static func facilities(_ answer: Answer.Facilities, into page: inout Page) {
        if answer.stale { page.paragraph("The lift status is stale: every lift counts as unknown.") }
        guard !answer.units.isEmpty else {
            page.paragraph(answer.stationId == nil ? "No lift-status unit is placed at any station." : "No lift-status unit is placed at this station.")
            return
        }
        var station: String?
        for unit in answer.units {
            if unit.stationId != station {
                station = unit.stationId
                page.paragraph(unit.stationId == Answer.FacilityUnit.noStation ? "At no station" : "\(unit.stationName) (\(unit.stationId))")
            }
            let line = StepFreeNowLines.unit(facility: unit.facility, id: unit.unitId, status: unit.status, description: unit.description,
                                             since: unit.since.value, expectedBack: unit.expectedBack.value)
            page.paragraph(line + " (" + StepFreeNowLines.placement(unit) + ")", indent: 2)
            if !unit.serving.isEmpty, unit.serving != unit.description { page.paragraph("serves " + TerminalText(unit.serving), indent: 4) }
            if let join = StepFreeNowLines.join(unit) { page.paragraph(join, indent: 4) }
        }
    }

    /// `Bus stop 1106: …`, for a sheet that is not a train station's.
    static func busStop(_ sheet: Answer.Sheet) -> TerminalText {
        "Bus stop \(sheet.stopId ?? "?"): bus stops have no train alerts and no accessibility button."
    }

    /// `8 train service alerts · step-free access`: the glyph and the button, in words; alerts
    /// that never loaded are said to be so, never shown as none.
    static func summary(_ sheet: Answer.Sheet) -> TerminalText {
        let alertsLabel: TerminalText
        if let label = sheet.alertGlyph.value?.accessibilityLabel {
            alertsLabel = "\(label)"
        } else {
            let alerts = sheet.data?.alerts
            alertsLabel = alerts?.configured == false ? "train alerts not configured"
                : alerts?.loaded == false ? "train alerts not loaded yet" : "no train service alerts"
        }
        return "\(alertsLabel) · \(stepFreeWords(sheet.accessibilityButton.value?.stepFree))"
    }

    /// `step-free access`, `no step-free access`, `step-free access unknown`: the daemon's
    /// step-free word, in words.
    static func stepFreeWords(_ stepFree: Answer.StepFree?, partial: Bool = false) -> TerminalText {
        switch stepFree ?? .unknown {
        case .available: return partial ? "step-free access at some platforms" : "step-free access"
        case .none: return "no step-free access"
        case .unknown: return "step-free access unknown"
        }
    }

    /// A note when the data behind a sheet is missing or old.
    static func freshness(_ data: Answer.SheetData?) -> [TerminalText] {
        guard let data else { return [] }
        return [freshness(data.alerts, of: .alerts), freshness(data.stations, of: .stations)].compactMap { $0 }
    }

    /// The data a sheet's `data` tells about, in words.
    enum Source {
        case alerts, stations

        var words: TerminalText { self == .alerts ? "Train alert data" : "Station data" }
    }

    static func freshness(_ entry: Answer.Freshness, of source: Source) -> TerminalText? {
        if !entry.configured { return "\(source.words) is not configured: the daemon has no source for it." }
        if !entry.loaded { return "\(source.words) has not loaded yet." }
        guard entry.stale else { return nil }
        let age = entry.ageSeconds.value.map { " (loaded \(duration($0)) ago)" } ?? ""
        return "\(source.words) is out of date\(age)."
    }

    static func duration(_ seconds: Int) -> TerminalText {
        switch seconds {
        case ..<120: return "\(seconds) s"
        case ..<7200: return "\(seconds / 60) min"
        case ..<172_800: return "\(seconds / 3600) h"
        default: return "\(seconds / 86_400) days"
        }
    }

    /// Accessibility advisories (elevator outages and returns to service).
    static func advisories(_ advisories: [Answer.Advisory], into page: inout Page) {
        guard !advisories.isEmpty else { return }
        page.blank()
        page.paragraph("Accessibility advisories")
        for (index, advisory) in advisories.enumerated() {
            if index > 0 { page.blank() }
            let lead: TerminalText = advisory.restored ? "Back in service:" : kindWord(advisory.kind)
            page.paragraph("\(advisory.headline)", indent: 2, hangingIndent: 4, lead: lead)
            if let period = AlertDates.period(start: advisory.start.value, end: advisory.end.value) { page.paragraph(period, indent: 4) }
            page.paragraphs(advisory.description, indent: 4)
        }
    }

    static func kindWord(_ kind: Answer.AlertKind) -> TerminalText {
        switch kind {
        case .active: return "Active:"
        case .planned: return "Planned:"
        case .unknown: return "Advisory:"
        }
    }

    // MARK: alerts

    /// One alert: the dialog's own wording (`Active train alert: <headline>`), its dates, then its
    /// description; with `details`, what it applies to, CTA's impact, its id and link.
    static func alert(_ alert: Answer.Alert, indent: Int, details: Bool, into page: inout Page) {
        page.paragraph("\(alert.headline)", indent: indent, hangingIndent: indent + 2, lead: alertLead(alert.kind))
        if let period = AlertDates.period(start: alert.start.value, end: alert.end.value) { page.paragraph(period, indent: indent + 2) }
        if details {
            var facts = scopes(alert.scopes)
            if let impact = alert.impact.value { facts.append("\(impact)") }
            if alert.major.value == true { facts.append("major alert") }
            if let severity = alert.severity.value { facts.append("severity \(severity)") }
            facts.append("alert \(alert.id)")
            page.words(list(facts, comma: false), indent: indent + 2)
        }
        page.paragraphs(alert.description, indent: indent + 2)
        if details, let url = alert.url.value { page.link(TerminalText(url), indent: indent + 2) }
    }

    /// `Active train alert:`: the dialog's word for an alert of that kind.
    static func alertLead(_ kind: Answer.AlertKind) -> TerminalText {
        switch kind {
        case .active: return "Active train alert:"
        case .planned: return "Planned train alert:"
        case .unknown: return "Train alert:"
        }
    }

    /// `Blue Line`, `all lines`, `station 40380`: where an alert applies.
    static func scopes(_ scopes: [Answer.Scope]) -> [TerminalText] {
        scopes.map { scope -> TerminalText in
            let id = scope.id ?? "?"
            switch scope.type {
            case .systemwide: return "all lines"
            case .route: return LineNames.name(id)
            case .station: return "station \(id)"
            case .routeType: return "all route_type \(scope.routeType.map(String.init) ?? "?") lines"
            case .agency: return "agency \(id)"
            }
        }
    }

    static func alerts(_ result: Answer.Alerts, station: Answer.Station?, into page: inout Page) {
        let alerts = result.alerts
        let count: TerminalText = alerts.isEmpty ? "No train service alerts" : alerts.count == 1 ? "1 train service alert" : "\(alerts.count) train service alerts"
        if let stationID = result.stationId {
            header(name: station?.summary.stationName, id: stationID, station: station?.summary, into: &page)
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

    /// One station a line, in the daemon's order: by name as the feed's language sorts names
    /// (same-named ones together, told apart by their lines), then id;
    /// `named`: the NAME the list was cut to (`StationLookup.filtered`), for when none is left.
    static func stations(_ result: Answer.Stations, named name: String?, indent: Int = 0, into page: inout Page) {
        let stations = result.stations
        if let name, stations.isEmpty { page.paragraph("No station's name contains \u{201C}\(TerminalText(name))\u{201D}.", indent: indent) }
        for station in stations {
            let id = TerminalText(station.stationId)
            var words = [TerminalText(id.description.padding(to: 5))] + Page.words(TerminalText(station.stationName))
            let lines = LineNames.names(station.routes, lines: station.lines)
            words += lines.enumerated().map { index, line in
                (index == 0 ? "(" : "") + line + (index == lines.count - 1 ? ")" : ",")
            }
            words += ["·"] + Page.words(stepFreeWords(station.stepFree, partial: station.partial))
            page.words(words, indent: indent, hangingIndent: indent + 6)
        }
    }

    // MARK: station

    /// `Western (Blue Line) 40220`: the name, the lines that tell same-named stations apart, the id.
    static func header(name: String?, id: String?, station: Answer.StationSummary?, into page: inout Page) {
        var words = Page.words(TerminalText(name ?? id ?? "?"))
        let lines = LineNames.names(station?.routes ?? [], lines: station?.lines)
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

    static func station(_ station: Answer.Station, into page: inout Page) {
        let summary = station.summary
        header(name: summary.stationName, id: summary.stationId, station: summary, into: &page)
        page.paragraph("\(stepFreeWords(summary.stepFree, partial: summary.partial))")
        let platforms = station.platforms
        if !platforms.isEmpty {
            page.blank()
            page.paragraph("Platforms")
            let columns: [[TerminalText]] = platforms.map { platform in
                [TerminalText(platform.stopId), direction(platform.direction.value), platformStepFree(platform.stepFree.value)]
            }
            let widths = (0..<3).map { column in columns.map { Page.displayWidth($0[column].description) }.max() ?? 0 }
            for (platform, cells) in zip(platforms, columns) {
                let lead = (0..<3).map { cells[$0].description.padding(to: widths[$0]) }.joined(separator: "  ") + " "
                let hanging = 2 + widths.reduce(0, +) + 2 * 3
                page.words([TerminalText(lead)] + list(LineNames.names(platform.routes, lines: summary.lines), comma: true), indent: 2, hangingIndent: hanging)
            }
        }
        page.blank()
        stepFreeNow(station.now, into: &page)
        advisories(station.advisories, into: &page)
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

    static func platformStepFree(_ value: Bool?) -> TerminalText {
        switch value {
        case true: return "step-free"
        case false: return "not step-free"
        case nil: return "step-free unknown"
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

    /// `key: value` lines, nested objects indented under their key, arrays as `- item`: any
    /// result laid out as it came, whatever its members.
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
