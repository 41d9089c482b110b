import StopSheetCore
import StopSheetProtocol

/// The sheet's parts about alerts as answers (`Answer.Alert`, `.Scope`, `.Advisory`,
/// `.AlertGlyph`, `.Dialog`): a snapshot encodes each alert and each advisory once, a sheet's
/// glyph once per set of alerts. Times are ISO 8601 in `zone`, the zone the daemon shows.
extension LiveAlert {
    func answer(in zone: TimeZoneRules) -> Answer.Alert {
        let details = alert.details
        return Answer.Alert(id: alert.id, kind: kind, headline: alert.headline, description: alert.description, start: alert.start.map(zone.iso8601),
                            end: alert.end.map(zone.iso8601), scopes: alert.scopes.map(Answer.Scope.init), impact: details.impact,
                            severity: details.severity, major: details.major, url: details.url, category: details.category, cause: details.cause,
                            effect: details.effect, severityLevel: details.severityLevel)
    }

    func encoded(in zone: TimeZoneRules) -> PreEncoded<Answer.Alert> { PreEncoded(answer(in: zone)) }
}

extension Answer.Scope {
    /// `id` for a route, a station or an agency, `routeType` for a route type.
    init(_ scope: AlertScope) {
        switch scope {
        case .systemwide: self.init(type: .systemwide, id: nil, routeType: nil)
        case .route(let route): self.init(type: .route, id: route.rawValue, routeType: nil)
        case .station(let id): self.init(type: .station, id: id, routeType: nil)
        case .routeType(let routeType): self.init(type: .routeType, id: nil, routeType: routeType)
        case .agency(let id): self.init(type: .agency, id: id, routeType: nil)
        }
    }
}

extension AccessibilityAdvisory {
    func answer(in zone: TimeZoneRules) -> Answer.Advisory {
        Answer.Advisory(alertId: alert.alert.id, kind: alert.kind, headline: alert.alert.headline, description: alert.alert.description,
                        start: alert.alert.start.map(zone.iso8601), end: alert.alert.end.map(zone.iso8601), restored: restored)
    }

    func encoded(in zone: TimeZoneRules) -> PreEncoded<Answer.Advisory> { PreEncoded(answer(in: zone)) }
}

extension StopSheet.AlertGlyph {
    var answer: Answer.AlertGlyph { Answer.AlertGlyph(count: count, accessibilityLabel: accessibilityLabel, alert: alert.answer) }
}

extension StopSheet.AlertDialog {
    var answer: Answer.Dialog { Answer.Dialog(title: title, message: message, buttons: buttons) }
}
