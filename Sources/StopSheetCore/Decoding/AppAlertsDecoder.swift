/// The app API's alerts: `{"alerts":[{"id","status","headline","description","scopes":[…],
/// "start"?,"end"?}]}`. Unlike CTA's, these alerts state their kind. A time without an offset is
/// Chicago's wall clock, read with `chicago`.
public enum AppAlertsDecoder {
    public static func decode(_ document: JSON, chicago: TimeZoneRules, limits: DecodingLimits = .init()) throws(DecodingFailure) -> [Alert] {
        try JSONFields.records(try JSONFields.array(document["alerts"], at: "alerts"), at: "alerts", limits: limits) { (value, path) throws(DecodingFailure) in
            try alert(value, at: path, chicago: chicago)
        }
    }

    private static func alert(_ value: JSON, at path: String, chicago: TimeZoneRules) throws(DecodingFailure) -> Alert? {
        let object = try JSONFields.object(value, at: path)
        let id = try JSONFields.id(object["id"], at: "\(path).id")
        let headline = try JSONFields.string(object["headline"], at: "\(path).headline")
        let description = try JSONFields.optionalString(object["description"], at: "\(path).description") ?? ""
        let start = try date(object["start"], at: "\(path).start", chicago)
        let end = try date(object["end"], at: "\(path).end", chicago)
        let scopes = try self.scopes(object["scopes"], at: "\(path).scopes")
        guard !scopes.isEmpty else { return nil }
        return Alert(id: id, kindSource: .stated(kind(object["status"])), headline: headline,
                     description: description, start: start, end: end, scopes: scopes, details: details(object))
    }

    /// The optional `impact`, `severity`, `major`, `url` and `category`, CTA's fields under the
    /// app's names. Informative only: a value of another type is read as absent, never as a
    /// reason to drop the alert set.
    private static func details(_ object: JSONObject) -> AlertDetails {
        func string(_ name: String) -> String? {
            object[name]?.stringValue.map(UpstreamText.trimmed).flatMap { $0.isEmpty ? nil : $0 }
        }
        return AlertDetails(impact: string("impact"), severity: object["severity"]?.intValue, major: object["major"]?.boolValue,
                            url: string("url"), category: string("category"))
    }

    /// Any status other than active or planned, of any type, is the generic kind: the dialog
    /// still shows the alert.
    private static func kind(_ status: JSON?) -> AlertKind {
        switch status?.stringValue.map(UpstreamText.trimmed)?.lowercased() {
        case "active": return .active
        case "planned": return .planned
        default: return .unknown
        }
    }

    private static func scopes(_ value: JSON?, at path: String) throws(DecodingFailure) -> [AlertScope] {
        guard let value, !value.isNull else { return [] }
        var scopes: [AlertScope] = []
        for (index, element) in try JSONFields.array(value, at: path).enumerated() {
            let scopePath = "\(path)[\(index)]"
            let object = try JSONFields.object(element, at: scopePath)
            let type = try JSONFields.string(object["type"], at: "\(scopePath).type")
            let scope: AlertScope?
            switch type.lowercased() {
            case "systemwide": scope = .systemwide
            case "route": scope = RouteID.train(try JSONFields.id(object["id"], at: "\(scopePath).id")).map(AlertScope.route)
            case "station": scope = .station(try JSONFields.id(object["id"], at: "\(scopePath).id"))
            default: scope = nil
            }
            if let scope, !scopes.contains(scope) { scopes.append(scope) }
        }
        return scopes
    }

    private static func date(_ value: JSON?, at path: String, _ chicago: TimeZoneRules) throws(DecodingFailure) -> Instant? {
        guard let text = try JSONFields.optionalString(value, at: path) else { return nil }
        guard let instant = ISO8601Time.instant(text, localTime: chicago) else {
            throw .malformed(path: path, reason: "not an ISO 8601 time: '\(text)'")
        }
        return instant
    }
}
