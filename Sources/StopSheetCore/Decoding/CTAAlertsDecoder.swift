/// The CTA Customer Alerts API JSON (`alerts.aspx?outputType=JSON`, root `CTAAlerts`).
///
/// The JSON is a mechanical conversion of the API's XML, which explains its quirks: every value
/// is a string, an element that occurs once is an object rather than a one-element array, CDATA
/// is `{"#cdata-section": …}`, and an empty element is `null`.
public enum CTAAlertsDecoder {
    /// The train alerts in a parsed `{"CTAAlerts": …}` document, in upstream order. Alerts with
    /// no train scope are dropped; `ErrorCode` 25 or 50 ("no alerts") is an empty success.
    /// `chicago` reads the dates, Chicago wall-clock time (`CTATime`).
    public static func decode(_ document: JSON, chicago: TimeZoneRules, limits: DecodingLimits = .init()) throws(DecodingFailure) -> [Alert] {
        let root = try JSONFields.object(document["CTAAlerts"], at: "CTAAlerts")
        if let code = try errorCode(root["ErrorCode"], at: "CTAAlerts.ErrorCode") {
            switch Int(code) {
            case 0: break
            case 25, 50: return []
            default:
                let message = try text(root["ErrorMessage"], at: "CTAAlerts.ErrorMessage").map(UpstreamText.trimmed)
                throw .upstreamError(code: code, message: message)
            }
        }

        return try JSONFields.records(try oneOrMany(root["Alert"], at: "CTAAlerts.Alert"), at: "CTAAlerts.Alert", limits: limits) { (value, path) throws(DecodingFailure) in
            try alert(value, at: path, chicago: chicago)
        }
    }

    /// `CTAAlerts.TimeStamp`, when the API made the document (Chicago wall clock); nil when
    /// absent or unreadable: it says how fresh the data is, and the alerts stand without it.
    public static func producedAt(_ document: JSON, chicago: TimeZoneRules) -> Instant? {
        guard case .string(let stamp)? = document["CTAAlerts"]?["TimeStamp"] else { return nil }
        return CTATime.instant(stamp, in: chicago)
    }

    /// The code as text, or nil for success by absence. Arrays come from a repeated XML element;
    /// the first non-zero code in one decides.
    private static func errorCode(_ value: JSON?, at path: String) throws(DecodingFailure) -> String? {
        guard let value else { return nil }
        if case .array(let elements) = value {
            var codes: [String] = []
            for (index, element) in elements.enumerated() {
                if let code = try errorCode(element, at: "\(path)[\(index)]") { codes.append(code) }
            }
            return codes.first { Int($0) != 0 } ?? codes.first
        }
        guard let code = try text(value, at: path).map(UpstreamText.trimmed), !code.isEmpty else { return nil }
        if case .number = value, let integral = value.intValue { return String(integral) }
        return code
    }

    private static func alert(_ value: JSON, at path: String, chicago: TimeZoneRules) throws(DecodingFailure) -> Alert? {
        let object = try JSONFields.object(value, at: path)
        guard let id = try text(object["AlertId"], at: "\(path).AlertId").map(UpstreamText.trimmed), !id.isEmpty else {
            throw .malformed(path: "\(path).AlertId", reason: object["AlertId"] == nil ? "missing" : "empty")
        }
        guard object["Headline"] != nil else { throw .malformed(path: "\(path).Headline", reason: "missing") }
        // An empty XML element arrives as null: an empty text, not a broken alert.
        let headline = try text(object["Headline"], at: "\(path).Headline") ?? ""
        let description = try text(object["ShortDescription"], at: "\(path).ShortDescription") ?? ""
        let start = try date(object["EventStart"], at: "\(path).EventStart", chicago)
        let end = try date(object["EventEnd"], at: "\(path).EventEnd", chicago)

        let scopes = try self.scopes(object["ImpactedService"], at: "\(path).ImpactedService")
        guard !scopes.isEmpty else { return nil }
        return Alert(id: id, kindSource: .fromTime, headline: UpstreamText.trimmed(headline),
                     description: UpstreamText.trimmed(description), start: start, end: end, scopes: scopes,
                     details: details(object))
    }

    /// What CTA says about the alert beside its text. Informative only: a value that does not
    /// read as its kind (a severity that is not a whole number, an object) is left out, never a
    /// reason to drop the alert set.
    private static func details(_ object: JSONObject) -> AlertDetails {
        func field(_ name: String) -> String? {
            (try? text(object[name], at: name))?.map(UpstreamText.trimmed).flatMap { $0.isEmpty ? nil : $0 }
        }
        let major: Bool? = switch field("MajorAlert")?.lowercased() {
        case "1", "true": true
        case "0", "false": false
        default: nil
        }
        return AlertDetails(impact: field("Impact"), severity: field("SeverityScore").flatMap { Int($0) }, major: major, url: field("AlertURL"))
    }

    /// Train scopes in upstream order without repeats; bus and unknown services are left out.
    private static func scopes(_ value: JSON?, at path: String) throws(DecodingFailure) -> [AlertScope] {
        guard let value, !value.isNull else { return [] }
        let impacted = try JSONFields.object(value, at: path)
        var scopes: [AlertScope] = []
        for (index, service) in try oneOrMany(impacted["Service"], at: "\(path).Service").enumerated() {
            let servicePath = "\(path).Service[\(index)]"
            let object = try JSONFields.object(service, at: servicePath)
            let type = try requiredText(object["ServiceType"], at: "\(servicePath).ServiceType")
            let id = try requiredText(object["ServiceId"], at: "\(servicePath).ServiceId")
            guard let scope = scope(type: type, id: id), !scopes.contains(scope) else { continue }
            scopes.append(scope)
        }
        return scopes
    }

    private static func scope(type: String, id: String) -> AlertScope? {
        switch type.uppercased() {
        case "X":
            switch id.lowercased() {
            case "systemwide", "train": return .systemwide
            default: return nil
            }
        case "R": return RouteID.train(id).map(AlertScope.route)
        case "T": return id.isEmpty ? nil : .station(id)
        default: return nil
        }
    }

    // MARK: Values as the XML-to-JSON conversion writes them

    /// A repeated element: absent or null is none, an object is one, an array is many.
    private static func oneOrMany(_ value: JSON?, at path: String) throws(DecodingFailure) -> [JSON] {
        switch value {
        case nil, .null?: return []
        case .object(let object)?: return [.object(object)]
        case .array(let elements)?: return elements
        case let other?: throw JSONFields.wrongType(other, at: path, expected: "an object or an array")
        }
    }

    /// Text from a string, a number or a CDATA section; nil when absent or null.
    private static func text(_ value: JSON?, at path: String) throws(DecodingFailure) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let string)?: return string
        case .number(let literal)?: return literal
        case .object(let object)? where object["#cdata-section"] != nil:
            return try text(object["#cdata-section"], at: "\(path).#cdata-section")
        case let other?: throw JSONFields.wrongType(other, at: path, expected: "text")
        }
    }

    private static func requiredText(_ value: JSON?, at path: String) throws(DecodingFailure) -> String {
        guard let text = try text(value, at: path) else {
            throw .malformed(path: path, reason: value == nil ? "missing" : "null")
        }
        return UpstreamText.trimmed(text)
    }

    /// A CTA date; null or empty means none (an open-ended alert has no `EventEnd`).
    private static func date(_ value: JSON?, at path: String, _ chicago: TimeZoneRules) throws(DecodingFailure) -> Instant? {
        guard let text = try text(value, at: path).map(UpstreamText.trimmed), !text.isEmpty else { return nil }
        guard let instant = CTATime.instant(text, in: chicago) else { throw .malformed(path: path, reason: "not a CTA date: '\(text)'") }
        return instant
    }
}
