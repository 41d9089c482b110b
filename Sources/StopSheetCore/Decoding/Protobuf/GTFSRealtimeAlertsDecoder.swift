/// GTFS-realtime Service Alerts: a protobuf `FeedMessage` → normalised train alerts. Field
/// numbers are those of the GTFS-realtime reference's `gtfs-realtime.proto`; every other field,
/// extensions (1000–1999, 9000–9999) included, is skipped by its wire type.
///
/// - An entity's `alert` becomes an `Alert` with the entity's `id`; deleted entities and
///   entities without an alert (trip updates, vehicles) are skipped.
/// - Each `informed_entity` selector is the intersection of its fields (as MBTA and the
///   reference read it): with a `stop_id` it names that stop (a station or platform: the most
///   specific scope); else a `route_id` (or a trip's) names that line, exactly as spelled (the
///   station source's `route_id`s); a train `route_type` alone means every station of that mode;
///   an `agency_id` alone, that agency's stations. A selector whose `route_type` is not a train
///   (`TrainRouteTypes`) is a bus (or other mode) selector and dropped; an alert left with no
///   train scope is dropped, as for every format. A route the station source does not run
///   reaches no sheet.
/// - `active_period`s give the kind over time (`Alert.KindSource.periods`); no period → active.
/// - Texts pick a translation: the wanted language, then the untagged one, then the first.
public enum GTFSRealtimeAlertsDecoder {
    /// Field numbers from `gtfs-realtime.proto`.
    private enum FeedMessageField { static let header = 1, entity = 2 }
    private enum FeedHeaderField { static let timestamp = 3 }
    private enum FeedEntityField { static let id = 1, isDeleted = 2, alert = 5 }
    private enum AlertField {
        static let activePeriod = 1, informedEntity = 5, cause = 6, effect = 7, url = 8
        static let headerText = 10, descriptionText = 11, severityLevel = 14, effectDetail = 18
    }
    private enum TimeRangeField { static let start = 1, end = 2 }
    private enum SelectorField { static let agencyID = 1, routeID = 2, routeType = 3, trip = 4, stopID = 5 }
    private enum TripField { static let routeID = 5 }
    private enum TranslatedStringField { static let translation = 1 }
    private enum TranslationField { static let text = 1, language = 2 }

    /// Enum value names, indexed by number (the reference numbers them from 1).
    static let causes = ["UNKNOWN_CAUSE", "OTHER_CAUSE", "TECHNICAL_PROBLEM", "STRIKE", "DEMONSTRATION", "ACCIDENT", "HOLIDAY",
                         "WEATHER", "MAINTENANCE", "CONSTRUCTION", "POLICE_ACTIVITY", "MEDICAL_EMERGENCY"]
    static let effects = ["NO_SERVICE", "REDUCED_SERVICE", "SIGNIFICANT_DELAYS", "DETOUR", "ADDITIONAL_SERVICE", "MODIFIED_SERVICE",
                          "OTHER_EFFECT", "UNKNOWN_EFFECT", "STOP_MOVED", "NO_EFFECT", "ACCESSIBILITY_ISSUE"]
    static let severityLevels = ["UNKNOWN_SEVERITY", "INFO", "WARNING", "SEVERE"]

    /// Whether a body is a protobuf message rather than text (JSON, or an HTML error page),
    /// decided before any parse: it starts with the key of `FeedMessage.header` or `.entity`
    /// (0x0A, 0x12 — the first is also a line feed) and is binary — a control byte that text
    /// does not hold (a header's length is one) near the start, or bytes that are not UTF-8.
    public static func isFeedMessage(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first, first == 0x0A || first == 0x12 else { return false }
        let control = bytes.prefix(256).contains { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0x7F }
        return control || UpstreamBody.firstInvalidUTF8Offset(bytes) != nil
    }

    public static func decode(_ bytes: [UInt8], language: String = "en", trainRouteTypes: TrainRouteTypes = .rail,
                              limits: DecodingLimits = .init()) throws(DecodingFailure) -> [Alert] {
        try decodeFeed(bytes, language: language, trainRouteTypes: trainRouteTypes, limits: limits).alerts
    }

    /// The alerts and the header's `timestamp` (POSIX seconds; 0, the field's default, is none).
    public static func decodeFeed(_ bytes: [UInt8], language: String = "en", trainRouteTypes: TrainRouteTypes = .rail,
                                  limits: DecodingLimits = .init()) throws(DecodingFailure) -> DecodedAlerts {
        do {
            var feed = ProtobufReader(bytes, maxDepth: limits.maxDepth)
            var alerts: [Alert] = []
            var producedAt: Instant?
            var entities = 0
            while let field = try feed.next() {
                if field.number == FeedMessageField.header {
                    var header = try feed.message(expecting: field, at: "header")
                    producedAt = try timestamp(&header) ?? producedAt
                    continue
                }
                guard field.number == FeedMessageField.entity else {
                    try feed.skip(field)
                    continue
                }
                let path = "entity[\(entities)]"
                entities += 1
                try limits.check(itemCount: entities)
                var entity = try feed.message(expecting: field, at: path)
                if let alert = try self.entity(&entity, path: path, language: language, trains: trainRouteTypes) { alerts.append(alert) }
            }
            return DecodedAlerts(alerts: alerts, producedAt: producedAt)
        } catch let failure as ProtobufReader.Failure {
            throw .invalidProtobuf(failure)
        } catch let failure as DecodingFailure {
            throw failure
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
    }

    private static func timestamp(_ header: inout ProtobufReader) throws -> Instant? {
        var stamp: UInt64 = 0
        while let field = try header.next() {
            if field.number == FeedHeaderField.timestamp {
                stamp = try header.varint(expecting: field, at: "header.timestamp")
            } else {
                try header.skip(field)
            }
        }
        return stamp == 0 ? nil : instant(stamp)
    }

    private static func entity(_ reader: inout ProtobufReader, path: String, language: String, trains: TrainRouteTypes) throws -> Alert? {
        var id: String?
        var deleted = false
        var alert: ProtobufReader?
        while let field = try reader.next() {
            switch field.number {
            case FeedEntityField.id: id = try reader.string(expecting: field, at: "\(path).id")
            case FeedEntityField.isDeleted: deleted = try reader.varint(expecting: field, at: "\(path).is_deleted") != 0
            case FeedEntityField.alert: alert = try reader.message(expecting: field, at: "\(path).alert")
            default: try reader.skip(field)
            }
        }
        guard var alert, !deleted else { return nil }
        guard let id, !id.isEmpty else { throw DecodingFailure.malformed(path: "\(path).id", reason: "missing") }
        return try self.alert(&alert, id: id, path: "\(path).alert", language: language, trains: trains)
    }

    private static func alert(_ reader: inout ProtobufReader, id: String, path: String, language: String, trains: TrainRouteTypes) throws -> Alert? {
        var periods: [ActivePeriod] = []
        var scopes: [AlertScope] = []
        var details = AlertDetails()
        var headline: [Translation] = []
        var description: [Translation] = []
        var url: [Translation] = []
        var effectDetail: [Translation] = []
        var selectors = 0
        while let field = try reader.next() {
            switch field.number {
            case AlertField.activePeriod:
                var range = try reader.message(expecting: field, at: "\(path).active_period[\(periods.count)]")
                periods.append(try period(&range, path: "\(path).active_period[\(periods.count)]"))
            case AlertField.informedEntity:
                let at = "\(path).informed_entity[\(selectors)]"
                selectors += 1
                var selector = try reader.message(expecting: field, at: at)
                if let scope = try scope(&selector, path: at, trains: trains), !scopes.contains(scope) { scopes.append(scope) }
            case AlertField.cause:
                details.cause = name(try reader.varint(expecting: field, at: "\(path).cause"), in: causes)
            case AlertField.effect:
                details.effect = name(try reader.varint(expecting: field, at: "\(path).effect"), in: effects)
            case AlertField.severityLevel:
                details.severityLevel = name(try reader.varint(expecting: field, at: "\(path).severity_level"), in: severityLevels)
            case AlertField.url:
                var text = try reader.message(expecting: field, at: "\(path).url")
                url = try translations(&text, path: "\(path).url")
            case AlertField.effectDetail:
                var text = try reader.message(expecting: field, at: "\(path).effect_detail")
                effectDetail = try translations(&text, path: "\(path).effect_detail")
            case AlertField.headerText:
                var text = try reader.message(expecting: field, at: "\(path).header_text")
                headline = try translations(&text, path: "\(path).header_text")
            case AlertField.descriptionText:
                var text = try reader.message(expecting: field, at: "\(path).description_text")
                description = try translations(&text, path: "\(path).description_text")
            default:
                try reader.skip(field)
            }
        }
        guard !scopes.isEmpty else { return nil }
        details.url = choose(url, language: language).map(UpstreamText.trimmed)
        details.effectDetail = choose(effectDetail, language: language).map(UpstreamText.trimmed)
        let kindSource: Alert.KindSource = periods.isEmpty ? .fromTime : .periods(periods)
        // The alert's own start and end span its periods; an open side anywhere leaves it open.
        let start = periods.contains { $0.start == nil } ? nil : periods.compactMap(\.start).min()
        let end = periods.contains { $0.end == nil } ? nil : periods.compactMap(\.end).max()
        return Alert(id: id, kindSource: kindSource, headline: UpstreamText.trimmed(choose(headline, language: language) ?? ""),
                     description: UpstreamText.trimmed(choose(description, language: language) ?? ""),
                     start: start, end: end, scopes: scopes, details: details)
    }

    private static func period(_ reader: inout ProtobufReader, path: String) throws -> ActivePeriod {
        var period = ActivePeriod(start: nil, end: nil)
        while let field = try reader.next() {
            switch field.number {
            case TimeRangeField.start: period.start = instant(try reader.varint(expecting: field, at: "\(path).start"))
            case TimeRangeField.end: period.end = instant(try reader.varint(expecting: field, at: "\(path).end"))
            default: try reader.skip(field)
            }
        }
        return period
    }

    /// A selector as the intersection of its fields; nil when no train is in it.
    private static func scope(_ reader: inout ProtobufReader, path: String, trains: TrainRouteTypes) throws -> AlertScope? {
        var agency: String?
        var route: String?
        var routeType: Int64?
        var tripRoute: String?
        var stop: String?
        while let field = try reader.next() {
            switch field.number {
            case SelectorField.agencyID: agency = try reader.string(expecting: field, at: "\(path).agency_id")
            case SelectorField.routeID: route = try reader.string(expecting: field, at: "\(path).route_id")
            // int32: a negative value is sent as a ten-byte varint; its low 32 bits are the value.
            case SelectorField.routeType: routeType = Int64(Int32(truncatingIfNeeded: try reader.varint(expecting: field, at: "\(path).route_type")))
            case SelectorField.stopID: stop = try reader.string(expecting: field, at: "\(path).stop_id")
            case SelectorField.trip:
                var trip = try reader.message(expecting: field, at: "\(path).trip")
                while let tripField = try trip.next() {
                    if tripField.number == TripField.routeID {
                        tripRoute = try trip.string(expecting: tripField, at: "\(path).trip.route_id")
                    } else {
                        try trip.skip(tripField)
                    }
                }
            default: try reader.skip(field)
            }
        }
        if let routeType, !(Int(exactly: routeType).map(trains.contains) ?? false) { return nil }
        let routeName = [route, tripRoute].compactMap { $0 }.map(UpstreamText.trimmed).first { !$0.isEmpty }
        if let stop = stop.map(UpstreamText.trimmed), !stop.isEmpty { return .station(stop) }
        if let routeName { return .route(RouteID(routeName)) }
        if let routeType { return .routeType(Int(routeType)) }
        if let agency = agency.map(UpstreamText.trimmed), !agency.isEmpty { return .agency(agency) }
        return nil
    }

    private struct Translation {
        var text: String
        var language: String?
    }

    private static func translations(_ reader: inout ProtobufReader, path: String) throws -> [Translation] {
        var found: [Translation] = []
        while let field = try reader.next() {
            guard field.number == TranslatedStringField.translation else {
                try reader.skip(field)
                continue
            }
            let at = "\(path).translation[\(found.count)]"
            var translation = try reader.message(expecting: field, at: at)
            var text = ""
            var language: String?
            while let member = try translation.next() {
                switch member.number {
                case TranslationField.text: text = try translation.string(expecting: member, at: "\(at).text")
                case TranslationField.language: language = try translation.string(expecting: member, at: "\(at).language")
                default: try translation.skip(member)
                }
            }
            found.append(Translation(text: text, language: language))
        }
        return found
    }

    /// The wanted language (its exact tag, else the same primary language: `en-US` for `en`),
    /// then the untagged translation, then the first.
    private static func choose(_ translations: [Translation], language: String) -> String? {
        let wanted = language.lowercased()
        let primary = { (tag: String) in tag.lowercased().split(separator: "-").first.map(String.init) ?? "" }
        let tagged = translations.filter { !($0.language ?? "").isEmpty }
        return (tagged.first { $0.language!.lowercased() == wanted }
            ?? tagged.first { primary($0.language!) == primary(wanted) }
            ?? translations.first { ($0.language ?? "").isEmpty }
            ?? translations.first)?.text
    }

    private static func name(_ value: UInt64, in names: [String]) -> String? {
        value >= 1 && value <= UInt64(names.count) ? names[Int(value) - 1] : nil
    }

    private static func instant(_ seconds: UInt64) -> Instant {
        Instant(secondsSince1970: Int64(clamping: seconds))
    }
}

/// Reads of a known field, checked against the wire type the reference gives it.
private extension ProtobufReader {
    mutating func message(expecting field: Field, at path: String) throws -> ProtobufReader {
        try expect(field, .lengthDelimited, path)
        return try message()
    }

    mutating func string(expecting field: Field, at path: String) throws -> String {
        try expect(field, .lengthDelimited, path)
        guard let text = String(validating: try lengthDelimited(), as: UTF8.self) else {
            throw DecodingFailure.malformed(path: path, reason: "not UTF-8")
        }
        return text
    }

    mutating func varint(expecting field: Field, at path: String) throws -> UInt64 {
        try expect(field, .varint, path)
        return try varint()
    }

    private func expect(_ field: Field, _ type: WireType, _ path: String) throws {
        guard field.wireType == type else {
            throw DecodingFailure.malformed(path: path, reason: "wire type \(field.wireType.rawValue), expected \(type.rawValue)")
        }
    }
}
