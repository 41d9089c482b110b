import StopSheetClient
import StopSheetCore

/// `stopsheetctl map STOP_ID [--dot]`: a station's map (`stationMap`, issue 51) in the terminal,
/// or as Graphviz DOT. Every verdict drawn is the daemon's (which pathway is out, which way works):
/// nothing here walks the map.
extension Command {
    static let map = Command(
        name: "map", operands: "STOP_ID", summary: "a station's map: street ends, levels, lifts and what is out, each platform's ways",
        options: [Option(name: "--dot", value: nil, summary: "print it as Graphviz DOT (dot -Tsvg draws it): lifts out red and dashed, an unplaced outage's candidates orange, the ways that work bold")],
        operandCount: 1...1
    ) { invocation throws(Failure) in
        let stopID = invocation.operands[0]
        let answer = try invocation.call(try invocation.connect()) { (client) throws(ClientError) in try client.stationMap(stopId: stopID) }
        if invocation.arguments.has("--dot"), !invocation.json {
            print(StationMapDrawing.dot(answer.value), terminator: "")
            return ExitStatus.success
        }
        invocation.output(answer.json) { StationMapDrawing.page(answer.value, into: &$0) }
        return ExitStatus.success
    }
}

/// The two drawings of a `stationMap` answer.
enum StationMapDrawing {
    // MARK: the terminal

    static func page(_ answer: Answer.StationMap, into page: inout Page) {
        guard let map = answer.map.value else {
            page.paragraph(TerminalText(answer.stationId) + ": " + TerminalText(answer.reason ?? "no map"))
            return
        }
        let names = Dictionary(map.locations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let named = { (id: String) -> TerminalText in
            guard let name = names[id]?.name, !name.isEmpty else { return TerminalText(id) }
            return TerminalText(name) + " (" + TerminalText(id) + ")"
        }
        page.paragraph(TerminalText(answer.stationId) + ": \(map.locations.count) locations, \(map.pathways.count) pathways")
        page.blank()
        page.paragraph("Street ends")
        let streets = map.locations.filter { $0.role == .entrance || $0.role == .street }
        if streets.isEmpty { page.paragraph("none: the map shows no street", indent: 2) }
        for street in streets {
            page.paragraph(named(street.id) + (street.role == .street ? ", the street" : ", an entrance"), indent: 2)
        }
        page.blank()
        page.paragraph("Levels")
        var levels: [String?] = []
        for location in map.locations where !levels.contains(location.level.value) { levels.append(location.level.value) }
        for level in levels {
            let here = map.locations.filter { $0.level.value == level }
            let roles = Answer.MapRole.allCases.compactMap { role -> String? in
                let count = here.filter { $0.role == role }.count
                return count == 0 ? nil : "\(count) \(role.rawValue)\(count == 1 ? "" : "s")"
            }
            page.paragraph(TerminalText(level ?? "no level") + ": " + TerminalText(roles.joined(separator: ", ")), indent: 2)
        }
        page.blank()
        page.paragraph("Lifts")
        let lifts = map.pathways.filter { $0.mode == .elevator }
        if lifts.isEmpty { page.paragraph("none", indent: 2) }
        for lift in lifts {
            let levelsOf = { (id: String) in TerminalText(names[id]?.level.value ?? "?") }
            var line = TerminalText(lift.id) + ": " + levelsOf(lift.from) + (lift.bidirectional ? " ↔ " : " → ") + levelsOf(lift.to)
            if !lift.out.isEmpty { line = line + " — OUT (" + references(lift.out) + ")" }
            if !lift.candidateOf.isEmpty { line = line + " — may be out (" + references(lift.candidateOf) + ")" }
            page.paragraph(line, indent: 2)
        }
        page.blank()
        page.paragraph("Platforms")
        for platform in map.platforms {
            page.paragraph(named(platform.stopId) + ": entry " + yesNo(platform.entry.value) + ", exit " + yesNo(platform.exit.value), indent: 2)
            guard let via = platform.via else { continue }
            if via.isEmpty { page.paragraph("no street end reaches it, even with every pathway open", indent: 4) }
            for way in via {
                page.paragraph("via " + named(way.id) + ": entry " + yesNo(way.entry.value) + ", exit " + yesNo(way.exit.value), indent: 4)
            }
        }
    }

    private static func yesNo(_ value: Bool?) -> TerminalText {
        switch value {
        case true?: "yes"
        case false?: "no"
        case nil: "unknown"
        }
    }

    private static func references(_ outages: [Answer.OutageReference]) -> TerminalText {
        TerminalText(outages.map { $0.source == .alerts ? "alert \($0.id)" : "unit \($0.id)" }.joined(separator: ", "))
    }

    // MARK: Graphviz

    /// The map as a DOT digraph: a cluster per level; street ends as houses, platforms as bold
    /// boxes; a lift out red and dashed, an unplaced outage's candidate orange; the street ends
    /// that are a working way of some platform, and the platforms entered and left now, bold green.
    static func dot(_ answer: Answer.StationMap) -> String {
        var lines = ["digraph " + quoted(answer.stationId) + " {"]
        guard let map = answer.map.value else {
            lines.append("  label=" + quoted(answer.stationId + ": " + (answer.reason ?? "no map")) + ";")
            return (lines + ["}"]).joined(separator: "\n") + "\n"
        }
        lines.append("  graph [rankdir=TB, newrank=true, fontname=\"sans-serif\", label=" + quoted(answer.stationId) + "];")
        lines.append("  node [shape=box, fontname=\"sans-serif\", fontsize=10];")
        lines.append("  edge [fontname=\"sans-serif\", fontsize=9];")
        let ways = map.platforms.flatMap { $0.via ?? [] }
        let working = Set(ways.filter { $0.entry.value == true || $0.exit.value == true }.map(\.id))
        let usable = Set(map.platforms.filter { $0.entry.value == true && $0.exit.value == true }.map(\.stopId))
        var levels: [String?] = []
        for location in map.locations where !levels.contains(location.level.value) { levels.append(location.level.value) }
        for (number, level) in levels.enumerated() {
            let indent = level == nil ? "  " : "    "
            if let level { lines.append("  subgraph \"cluster_\(number)\" {\n    label=" + quoted("level " + level) + ";") }
            for location in map.locations where location.level.value == level {
                var attributes = ["label=" + quoted(location.name.isEmpty ? location.id : location.name + "\n" + location.id)]
                switch location.role {
                case .entrance, .street: attributes.append("shape=house")
                case .platform: attributes.append("shape=box, style=bold")
                case .boardingArea: attributes.append("shape=box, style=rounded")
                case .node: attributes.append("shape=ellipse")
                }
                if working.contains(location.id) || usable.contains(location.id) { attributes.append("color=darkgreen, penwidth=3") }
                lines.append(indent + quoted(location.id) + " [" + attributes.joined(separator: ", ") + "];")
            }
            if level != nil { lines.append("  }") }
        }
        for pathway in map.pathways {
            var attributes = pathway.mode == .walkway ? [] : ["label=" + quoted(pathway.mode.rawValue)]
            if pathway.bidirectional { attributes.append("dir=both") }
            if !pathway.out.isEmpty {
                attributes.append("color=red, style=dashed, penwidth=2")
            } else if !pathway.candidateOf.isEmpty {
                attributes.append("color=orange, penwidth=2")
            }
            lines.append("  " + quoted(pathway.from) + " -> " + quoted(pathway.to) + (attributes.isEmpty ? "" : " [" + attributes.joined(separator: ", ") + "]") + ";")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A DOT string: quotes and backslashes escaped (so no `\n` of the feed's is an escape),
    /// control characters and the terminal-unsafe ones made spaces; our own line breaks as `\n`.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out += UpstreamText.isUnsafe(scalar) ? " " : String(scalar)
            }
        }
        return out + "\""
    }
}
