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
            "accessibilityButton": accessibilityButton.json,
            "alerts": .array(alerts.map(\.json)),
        ]
    }

    /// `json.encoded`, byte for byte, from alert members already encoded; `scratch` is any
    /// buffer, reused across calls. A snapshot encodes
    /// each distinct set of applying alerts once (a line's stations share one) instead of once
    /// per station, and the button once per step-free status; only the id and the name are
    /// encoded per station, the name once for its two places. Tests check the two paths agree
    /// for every station of the real data and for names that need escapes.
    static func encoded(stationID: String, stationName: String, stepFree: StepFreeStatus, alertMembers: EncodedAlertMembers,
                        scratch: inout [UInt8]) -> [UInt8] {
        let button = EncodedButton.for(stepFree)
        scratch.removeAll(keepingCapacity: true)
        JSON.encodeString(stationName, into: &scratch)
        let bareName = scratch.count - 2
        let head = #"{"stopType":"train","stationId":"#.utf8
        let afterID = #","stationName":"#.utf8
        let afterName = #","alertGlyph":"#.utf8
        let afterGlyph = #","accessibilityButton":"#.utf8
        let afterButton = #","alerts":"#.utf8
        var out: [UInt8] = []
        // Exact for the usual id that needs no escape, so the sheet is allocated once.
        out.reserveCapacity(head.count + stationID.utf8.count + 2 + afterID.count + scratch.count + afterName.count + alertMembers.glyph.count
            + afterGlyph.count + button.head.count + bareName + button.tail.count + afterButton.count + alertMembers.alerts.count + 1)
        out.append(contentsOf: head)
        JSON.encodeString(stationID, into: &out)
        out.append(contentsOf: afterID)
        out.append(contentsOf: scratch)
        out.append(contentsOf: afterName)
        out.append(contentsOf: alertMembers.glyph)
        out.append(contentsOf: afterGlyph)
        out.append(contentsOf: button.head)
        scratch.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[1..<(1 + bareName)])) }
        out.append(contentsOf: button.tail)
        out.append(contentsOf: afterButton)
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

/// The encoded `accessibilityButton` value of one step-free status, split where the station's
/// name goes: the name, escaped without its quotes, between `head` and `tail` gives the bytes
/// of `StopSheet.accessibilityButton(stepFree, station: name).json.encoded`.
///
/// Derived from the button itself rather than spelled out again: it is encoded once for a marker
/// name and cut at the marker. That holds for any name because the encoder escapes byte by byte,
/// so a string's escape is the concatenation of its parts' escapes.
struct EncodedButton: Sendable {
    let head: [UInt8]
    let tail: [UInt8]

    static let available = EncodedButton(.available)
    static let none = EncodedButton(.none)
    static let unknown = EncodedButton(.unknown)

    static func `for`(_ stepFree: StepFreeStatus) -> EncodedButton {
        switch stepFree {
        case .available: return available
        case .none: return none
        case .unknown: return unknown
        }
    }

    private init(_ stepFree: StepFreeStatus) {
        // NUL escapes to `\u0000`, which none of the spec's fixed words can contain.
        let marker = Array(#"\u0000"#.utf8)
        let bytes = StopSheet.accessibilityButton(stepFree, station: "\u{0}").json.encoded
        let cuts = bytes.indices.filter { bytes[$0...].starts(with: marker) }
        precondition(cuts.count == 1, "the button's fixed text must not contain the name marker")
        head = Array(bytes[..<cuts[0]])
        tail = Array(bytes[(cuts[0] + marker.count)...])
    }
}

/// A sheet's `alertGlyph` and `alerts` values, encoded.
struct EncodedAlertMembers {
    let glyph: [UInt8]
    let alerts: [UInt8]
}

extension StopSheet.AccessibilityButton {
    public var json: JSON {
        [
            "tone": .string(tone.rawValue),
            "stepFree": .string(stepFree.rawValue),
            "accessibilityLabel": .string(accessibilityLabel),
            "symbol": .string(symbol),
            "alert": alert.json,
        ]
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
            "details": alert.details.json,
        ]
    }
}

extension AlertDetails {
    /// Only what the upstream gave: each format fills a few of these.
    public var json: JSON {
        let members: [(String, JSON?)] = [
            ("impact", impact.map(JSON.string)), ("severity", severity.map(JSON.int)), ("major", major.map(JSON.bool)),
            ("url", url.map(JSON.string)), ("category", category.map(JSON.string)), ("cause", cause.map(JSON.string)),
            ("effect", effect.map(JSON.string)), ("severityLevel", severityLevel.map(JSON.string)),
        ]
        return .object(JSONObject(members.compactMap { name, value in value.map { (name, $0) } }))
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
            "entrances": .array(entrances.map(\.json)),
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
