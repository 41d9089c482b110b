import StopSheetCore

/// The wire shapes of protocol.md's results. Member order is fixed so answers are byte-stable.
/// Times are ISO 8601 in `zone`, the zone the daemon shows (`TimeZones.shown`).
extension StopSheet {
    public func json(in zone: TimeZoneRules) -> JSON {
        [
            "stopType": "train",
            "stationId": .string(stationID),
            "stationName": .string(stationName),
            "alertGlyph": alertGlyph?.json ?? .null,
            "accessibilityButton": accessibilityButton.json(in: zone),
            "alerts": .array(alerts.map { $0.json(in: zone) }),
        ]
    }

    /// A bus stop's sheet: nothing at all, ever.
    public static func busJSON(stopID: String) -> JSON {
        ["stopType": "bus", "stopId": .string(stopID), "alertGlyph": nil, "accessibilityButton": nil]
    }
}

extension StopSheet.AlertGlyph {
    public var json: JSON {
        ["count": .int(count), "accessibilityLabel": .string(accessibilityLabel), "alert": alert.json]
    }
}

extension StopSheet.AccessibilityButton {
    public func json(in zone: TimeZoneRules) -> JSON {
        [
            "tone": .string(tone.rawValue),
            "stepFree": .string(stepFree.rawValue),
            "accessibilityLabel": .string(accessibilityLabel),
            "symbol": .string(symbol),
            "alert": alert.json,
            "advisories": .array(advisories.map { $0.json(in: zone) }),
            "now": now.json,
        ]
    }
}

extension StepFreeNow {
    public var json: JSON {
        [
            "stepFree": .string(stepFree.rawValue),
            "basis": .string(basis.rawValue),
            "complete": .bool(complete),
            "platforms": .array(platforms.map { platform in
                ["stopId": .string(platform.stopID), "name": .string(platform.name),
                 "entry": platform.entry.map(JSON.bool) ?? .null, "exit": platform.exit.map(JSON.bool) ?? .null]
            }),
            "outages": .array(outages.map { outage in
                ["alertId": .string(outage.alertID), "facility": .string(outage.facility.rawValue),
                 "facilityId": outage.facilityID.map(JSON.string) ?? .null, "pathways": .array(outage.pathways.map(JSON.string))]
            }),
        ]
    }
}

extension AccessibilityAdvisory {
    public func json(in zone: TimeZoneRules) -> JSON {
        [
            "alertId": .string(alert.alert.id),
            "kind": .string(alert.kind.rawValue),
            "headline": .string(alert.alert.headline),
            "description": .string(alert.alert.description),
            "start": zone.json(alert.alert.start),
            "end": zone.json(alert.alert.end),
            "restored": .bool(restored),
        ]
    }
}

extension StopSheet.AlertDialog {
    public var json: JSON {
        ["title": .string(title), "message": .string(message), "buttons": .array(buttons.map(JSON.string))]
    }
}

extension LiveAlert {
    public func json(in zone: TimeZoneRules) -> JSON {
        [
            "id": .string(alert.id),
            "kind": .string(kind.rawValue),
            "headline": .string(alert.headline),
            "description": .string(alert.description),
            "start": zone.json(alert.start),
            "end": zone.json(alert.end),
            "scopes": .array(alert.scopes.map(\.json)),
            // Present with null when the upstream does not say: one shape for every alert, whatever
            // its format (CTA: impact, severity, major, url; the app format: category; GTFS-realtime:
            // cause, effect, severityLevel, url).
            "impact": alert.details.impact.map(JSON.string) ?? .null,
            "severity": alert.details.severity.map(JSON.int) ?? .null,
            "major": alert.details.major.map(JSON.bool) ?? .null,
            "url": alert.details.url.map(JSON.string) ?? .null,
            "category": alert.details.category.map(JSON.string) ?? .null,
            "cause": alert.details.cause.map(JSON.string) ?? .null,
            "effect": alert.details.effect.map(JSON.string) ?? .null,
            "severityLevel": alert.details.severityLevel.map(JSON.string) ?? .null,
        ]
    }
}

extension AlertScope {
    public var json: JSON {
        switch self {
        case .systemwide: return ["type": "systemwide"]
        case .route(let route): return ["type": "route", "id": .string(route.rawValue)]
        case .station(let id): return ["type": "station", "id": .string(id)]
        case .routeType(let type): return ["type": "routeType", "routeType": .int(type)]
        case .agency(let id): return ["type": "agency", "id": .string(id)]
        }
    }
}

extension Station {
    /// The `station` detail: the summary's members, then platforms and entrances.
    public var json: JSON {
        var detail = summaryMembers
        detail.append("platforms", .array(platforms.map(\.json)))
        detail.append("entrances", .array(entrances.map(\.json)))
        return .object(detail)
    }

    /// One entry of `stations`: the detail's first members, no platforms or entrances.
    public var summaryJSON: JSON { .object(summaryMembers) }

    /// `lines` follows `routes` when the source describes its lines (a GTFS feed); CTA's own
    /// formats give ids only, and their answers have no `lines` member.
    private var summaryMembers: JSONObject {
        var members = JSONObject([
            ("stationId", .string(id)),
            ("stationName", .string(name)),
            ("routes", .array(routes.map { .string($0.rawValue) })),
        ])
        if !lines.isEmpty { members.append("lines", .array(lines.map(\.json))) }
        members.append("stepFree", .string(stepFree.rawValue))
        members.append("partial", .bool(partial))
        return members
    }
}

extension Line {
    /// GTFS's `route_short_name`, `route_long_name`, `route_color`, `route_type`, null when absent.
    public var json: JSON {
        [
            "id": .string(id.rawValue),
            "shortName": shortName.map(JSON.string) ?? .null,
            "longName": longName.map(JSON.string) ?? .null,
            "color": color.map(JSON.string) ?? .null,
            "routeType": .int(routeType),
        ]
    }
}

extension Entrance {
    public var json: JSON {
        ["id": .string(id), "name": .string(name), "stepFree": stepFree.map(JSON.bool) ?? .null]
    }
}

extension Platform {
    public var json: JSON {
        [
            "stopId": .string(stopID),
            "direction": direction.map(JSON.string) ?? .null,
            "routes": .array(routes.map { .string($0.rawValue) }),
            "stepFree": stepFree.map(JSON.bool) ?? .null,
        ]
    }
}

extension TimeZoneRules {
    /// An instant as the answers write it, or null.
    public func json(_ instant: Instant?) -> JSON { instant.map { .string(iso8601($0)) } ?? .null }
}
