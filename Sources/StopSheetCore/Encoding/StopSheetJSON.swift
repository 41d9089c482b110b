/// The wire shapes of protocol.md's results. Member order is fixed so answers are byte-stable.
extension StopSheet {
    public var json: JSON {
        [
            "stopType": "train",
            "stationId": .string(stationID),
            "stationName": .string(stationName),
            "alertGlyph": alertGlyph.map { glyph in
                ["count": .int(glyph.count), "accessibilityLabel": .string(glyph.accessibilityLabel), "alert": glyph.alert.json]
            } ?? .null,
            "accessibilityButton": [
                "tone": .string(accessibilityButton.tone.rawValue),
                "stepFree": .string(accessibilityButton.stepFree.rawValue),
                "accessibilityLabel": .string(accessibilityButton.accessibilityLabel),
                "symbol": .string(accessibilityButton.symbol),
                "alert": accessibilityButton.alert.json,
            ],
            "alerts": .array(alerts.map(\.json)),
        ]
    }

    /// A bus stop's sheet: nothing at all, ever.
    public static func busJSON(stopID: String) -> JSON {
        ["stopType": "bus", "stopId": .string(stopID), "alertGlyph": nil, "accessibilityButton": nil]
    }
}

extension StopSheet.AlertDialog {
    public var json: JSON {
        ["title": .string(title), "message": .string(message), "buttons": .array(buttons.map(JSON.string))]
    }
}

extension LiveAlert {
    public var json: JSON {
        [
            "id": .string(alert.id),
            "kind": .string(kind.rawValue),
            "headline": .string(alert.headline),
            "description": .string(alert.description),
            "start": alert.start.map { .string($0.description) } ?? .null,
            "end": alert.end.map { .string($0.description) } ?? .null,
            "scopes": .array(alert.scopes.map(\.json)),
        ]
    }
}

extension AlertScope {
    public var json: JSON {
        switch self {
        case .systemwide: return ["type": "systemwide"]
        case .route(let route): return ["type": "route", "id": .string(route.rawValue)]
        case .station(let id): return ["type": "station", "id": .string(id)]
        }
    }
}

extension Station {
    public var json: JSON {
        [
            "stationId": .string(id),
            "stationName": .string(name),
            "routes": .array(routes.map { .string($0.rawValue) }),
            "stepFree": .string(stepFree.rawValue),
            "partial": .bool(partial),
            "platforms": .array(platforms.map(\.json)),
        ]
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
