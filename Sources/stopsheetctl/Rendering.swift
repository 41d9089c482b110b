import StopSheetCore

/// Human-readable renderings: the sheet's metadata row and its two dialogs, as a person would
/// see them; other results as indented key: value lines.
enum Rendering {
    static func render(command: String, result: JSON) -> String {
        switch command {
        case "sheet": sheet(result)
        case "stats": StatsRendering.render(result)
        default: outline(result, indent: "")
        }
    }

    static func sheet(_ sheet: JSON) -> String {
        guard sheet["stopType"]?.stringValue == "train" else {
            return "Bus stop \(sheet["stopId"]?.stringValue ?? "?"): no alert glyph, no accessibility button\n"
        }
        var text = "\(sheet["stationName"]?.stringValue ?? "?") (\(sheet["stationId"]?.stringValue ?? "?"))\n"
        var row: [String] = []
        let glyph = sheet["alertGlyph"]
        if let glyph, glyph != .null { row.append("[⚠ \(glyph["accessibilityLabel"]?.stringValue ?? "")]") }
        let button = sheet["accessibilityButton"]
        row.append("[♿ \(button?["accessibilityLabel"]?.stringValue ?? "") · \(button?["tone"]?.stringValue ?? "")]")
        text += row.joined(separator: " ") + "\n"
        if let glyph, glyph != .null, let dialog = glyph["alert"] { text += "\n" + self.dialog(dialog) }
        if let dialog = button?["alert"] { text += "\n" + self.dialog(dialog) }
        return text
    }

    static func dialog(_ dialog: JSON) -> String {
        var text = "┌ \(dialog["title"]?.stringValue ?? "")\n"
        for line in (dialog["message"]?.stringValue ?? "").split(separator: "\n", omittingEmptySubsequences: false) {
            text += "│ \(line)\n"
        }
        let buttons = dialog["buttons"]?.arrayValue?.compactMap(\.stringValue) ?? []
        text += "└ " + buttons.map { "[\($0)]" }.joined(separator: " ") + "\n"
        return text
    }

    static func outline(_ value: JSON, indent: String) -> String {
        switch value {
        case .object(let object):
            return object.members.map { member in
                switch member.value {
                case .object, .array: return "\(indent)\(member.key):\n" + outline(member.value, indent: indent + "  ")
                default: return "\(indent)\(member.key): \(scalar(member.value))\n"
                }
            }.joined()
        case .array(let elements):
            if elements.isEmpty { return "\(indent)(none)\n" }
            return elements.enumerated().map { index, element in
                switch element {
                case .object, .array: return "\(indent)- [\(index)]\n" + outline(element, indent: indent + "  ")
                default: return "\(indent)- \(scalar(element))\n"
                }
            }.joined()
        default:
            return indent + scalar(value) + "\n"
        }
    }

    static func scalar(_ value: JSON) -> String {
        switch value {
        case .string(let text): return text.contains("\n") ? text.split(separator: "\n").joined(separator: " ⏎ ") : text
        default: return value.encodedString
        }
    }
}
