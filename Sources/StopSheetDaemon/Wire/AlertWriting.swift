import StopSheetCore
import StopSheetProtocol

/// How the sheet's parts about alerts are written (`Answer.Alert`, `.Scope`, `.Advisory`,
/// `.AlertGlyph`, `.Dialog`): a snapshot encodes each alert and each advisory once, a sheet's
/// glyph once per set of alerts. Times are ISO 8601 in `zone`, the zone the daemon shows.
extension LiveAlert {
    func encoded(in zone: TimeZoneRules) -> [UInt8] { .object { write(&$0, in: zone) } }

    func write<Sink>(_ writer: inout JSONWriter<Sink>, in zone: TimeZoneRules) {
        let details = alert.details
        writer.members(Answer.Alert.CodingKeys.self) { writer, key in
            switch key {
            case .id: writer.member(key, string: alert.id)
            case .kind: writer.member(key, word: kind)
            case .headline: writer.member(key, string: alert.headline)
            case .description: writer.member(key, string: alert.description)
            case .start: writer.member(key, string: alert.start.map(zone.iso8601))
            case .end: writer.member(key, string: alert.end.map(zone.iso8601))
            case .scopes: writer.array(key, of: alert.scopes) { writeScope(&$0, $1) }
            case .impact: writer.member(key, string: details.impact)
            case .severity: writer.member(key, int: details.severity)
            case .major: writer.member(key, bool: details.major)
            case .url: writer.member(key, string: details.url)
            case .category: writer.member(key, string: details.category)
            case .cause: writer.member(key, string: details.cause)
            case .effect: writer.member(key, string: details.effect)
            case .severityLevel: writer.member(key, string: details.severityLevel)
            }
        }
    }
}

/// `Answer.Scope`: `id` for a route, a station or an agency, `routeType` for a route type.
private func writeScope<Sink>(_ writer: inout JSONWriter<Sink>, _ scope: AlertScope) {
    let (type, id, routeType): (Answer.ScopeType, String?, Int?) = switch scope {
    case .systemwide: (.systemwide, nil, nil)
    case .route(let route): (.route, route.rawValue, nil)
    case .station(let id): (.station, id, nil)
    case .routeType(let routeType): (.routeType, nil, routeType)
    case .agency(let id): (.agency, id, nil)
    }
    writer.members(Answer.Scope.CodingKeys.self) { writer, key in
        switch key {
        case .type: writer.member(key, word: type)
        case .id: if let id { writer.member(key, string: id) }
        case .routeType: if let routeType { writer.member(key, int: routeType) }
        }
    }
}

extension AccessibilityAdvisory {
    func encoded(in zone: TimeZoneRules) -> [UInt8] { .object { write(&$0, in: zone) } }

    func write<Sink>(_ writer: inout JSONWriter<Sink>, in zone: TimeZoneRules) {
        writer.members(Answer.Advisory.CodingKeys.self) { writer, key in
            switch key {
            case .alertId: writer.member(key, string: alert.alert.id)
            case .kind: writer.member(key, word: alert.kind)
            case .headline: writer.member(key, string: alert.alert.headline)
            case .description: writer.member(key, string: alert.alert.description)
            case .start: writer.member(key, string: alert.alert.start.map(zone.iso8601))
            case .end: writer.member(key, string: alert.alert.end.map(zone.iso8601))
            case .restored: writer.member(key, bool: restored)
            }
        }
    }
}

extension StopSheet.AlertGlyph {
    /// The glyph's value, `null` for none.
    static func encoded(_ glyph: StopSheet.AlertGlyph?) -> [UInt8] {
        guard let glyph else { return JSON.null.encoded }
        return .object { writer in
            writer.members(Answer.AlertGlyph.CodingKeys.self) { writer, key in
                switch key {
                case .count: writer.member(key, int: glyph.count)
                case .accessibilityLabel: writer.member(key, string: glyph.accessibilityLabel)
                case .alert: writer.object(key) { glyph.alert.write(&$0, message: [glyph.alert.message]) }
                }
            }
        }
    }
}

extension StopSheet.AlertDialog {
    /// The dialog's members, its message given in parts (a sheet writes its station's name
    /// between the button sentence's words without building the sentence).
    func write<Sink>(_ writer: inout JSONWriter<Sink>, message: [String]) {
        writer.members(Answer.Dialog.CodingKeys.self) { writer, key in
            switch key {
            case .title: writer.member(key, string: title)
            case .message: writer.member(key, joined: message)
            case .buttons: writer.member(key, strings: buttons)
            }
        }
    }
}
