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

    /// `json.encoded`, byte for byte, from alert members already encoded. A snapshot encodes
    /// each distinct set of applying alerts once (a line's stations share one) instead of once
    /// per station; tests check the two paths agree for every station of the real data.
    static func encoded(stationID: String, stationName: String, stepFree: StepFreeStatus, alertMembers: EncodedAlertMembers) -> [UInt8] {
        let button = StopSheet.accessibilityButton(stepFree, station: stationName)
        var out: [UInt8] = []
        out.reserveCapacity(512 + alertMembers.glyph.count + alertMembers.alerts.count)
        out.append(contentsOf: #"{"stopType":"train","stationId":"#.utf8)
        JSON.encodeString(stationID, into: &out)
        out.append(contentsOf: #","stationName":"#.utf8)
        JSON.encodeString(stationName, into: &out)
        out.append(contentsOf: #","alertGlyph":"#.utf8)
        out.append(contentsOf: alertMembers.glyph)
        out.append(contentsOf: #","accessibilityButton":"#.utf8)
        JSON.object(JSONObject([
            ("tone", .string(button.tone.rawValue)),
            ("stepFree", .string(button.stepFree.rawValue)),
            ("accessibilityLabel", .string(button.accessibilityLabel)),
            ("symbol", .string(button.symbol)),
            ("alert", button.alert.json),
        ])).encode(into: &out)
        out.append(contentsOf: #","alerts":"#.utf8)
        out.append(contentsOf: alertMembers.alerts)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The encoded `alertGlyph` and `alerts` members for alerts in upstream order, each alert's
    /// own JSON given already encoded (`encodedAlerts[i]` is `alerts[i].json.encoded`).
    static func encodedAlertMembers(_ alerts: [LiveAlert], encodedAlerts: [[UInt8]]) -> EncodedAlertMembers {
        let order = alerts.indices.sorted { (alerts[$0].kind, $0) < (alerts[$1].kind, $1) }
        let sheet = StopSheet(stationID: "", stationName: "", stepFree: .unknown, alerts: alerts)
        var glyph: [UInt8] = []
        if let alertGlyph = sheet.alertGlyph {
            JSON.object(JSONObject([
                ("count", .int(alertGlyph.count)), ("accessibilityLabel", .string(alertGlyph.accessibilityLabel)), ("alert", alertGlyph.alert.json),
            ])).encode(into: &glyph)
        } else {
            glyph.append(contentsOf: "null".utf8)
        }
        var list: [UInt8] = [UInt8(ascii: "[")]
        for (position, index) in order.enumerated() {
            if position > 0 { list.append(UInt8(ascii: ",")) }
            list.append(contentsOf: encodedAlerts[index])
        }
        list.append(UInt8(ascii: "]"))
        return EncodedAlertMembers(glyph: glyph, alerts: list)
    }

    /// A bus stop's sheet: nothing at all, ever.
    public static func busJSON(stopID: String) -> JSON {
        ["stopType": "bus", "stopId": .string(stopID), "alertGlyph": nil, "accessibilityButton": nil]
    }
}

/// A sheet's `alertGlyph` and `alerts` values, encoded.
struct EncodedAlertMembers {
    let glyph: [UInt8]
    let alerts: [UInt8]
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
