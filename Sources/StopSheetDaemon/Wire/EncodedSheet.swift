import StopSheetCore

/// One station's `stopSheet` result assembled from parts encoded once per snapshot.
extension StopSheet {
    /// `json.encoded`, byte for byte, from alert members already encoded; `scratch` is any
    /// buffer, reused across calls. A snapshot encodes
    /// each distinct set of applying alerts once (a line's stations share one) instead of once
    /// per station, and the button once per step-free status; only the id and the name are
    /// encoded per station, the name once for its two places. Tests check the two paths agree
    /// for every station of the real data and for names that need escapes.
    static func encoded(stationID: String, stationName: String, stepFree: StepFreeStatus, agency: String = Agency.cta.name,
                        alertMembers: EncodedAlertMembers, scratch: inout [UInt8]) -> [UInt8] {
        let button = EncodedButton.for(stepFree, agency: agency)
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
            + afterGlyph.count + button.head.count + bareName + button.tail.count + alertMembers.advisories.count + 1 + afterButton.count
            + alertMembers.alerts.count + 1)
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
        out.append(contentsOf: alertMembers.advisories)
        out.append(UInt8(ascii: "}"))
        out.append(contentsOf: afterButton)
        out.append(contentsOf: alertMembers.alerts)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The encoded `alertGlyph`, `alerts` and advisories members for alerts in dialog order, each
    /// alert's own JSON given already encoded (`encodedAlerts[i]` is `alerts[i].json.encoded`).
    static func encodedAlertMembers(_ alerts: [LiveAlert], encodedAlerts: [[UInt8]], zone: TimeZoneRules) -> EncodedAlertMembers {
        let sheet = StopSheet(stationID: "", stationName: "", stepFree: .unknown, alerts: alerts)
        var glyph: [UInt8] = []
        (sheet.alertGlyph?.json ?? .null).encode(into: &glyph)
        var advisories: [UInt8] = []
        JSON.array(sheet.accessibilityButton.advisories.map { $0.json(in: zone) }).encode(into: &advisories)
        var list: [UInt8] = [UInt8(ascii: "[")]
        for (position, alert) in encodedAlerts.enumerated() {
            if position > 0 { list.append(UInt8(ascii: ",")) }
            list.append(contentsOf: alert)
        }
        list.append(UInt8(ascii: "]"))
        return EncodedAlertMembers(glyph: glyph, alerts: list, advisories: advisories)
    }
}

/// A sheet's `alertGlyph`, `alerts` and `accessibilityButton.advisories` values, encoded.
struct EncodedAlertMembers {
    let glyph: [UInt8]
    let alerts: [UInt8]
    let advisories: [UInt8]
}
