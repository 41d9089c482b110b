/// SIRI Facility Monitoring (CEN/TS 15531): `Siri/ServiceDelivery/FacilityMonitoringDelivery/
/// FacilityCondition`, each with a `FacilityRef` or a `Facility` (`FacilityCode`,
/// `FacilityClass`, `FacilityLocation` with `StopPlaceRef`/`StopPointRef`), its
/// `FacilityStatus/Status` and `Description`, and a `ValidityPeriod`.
enum SIRIFacilityMonitoringDecoder {
    static let table = "FacilityCondition"

    static func decode(_ root: MarkupElement, local: TimeZoneRules, limits: DecodingLimits) throws(DecodingFailure) -> FacilitiesDecoder.Feed {
        guard root.name == "Siri" else { throw .unrecognisedFormat("XML root element is '\(UpstreamText.quoted(root.name))', not 'Siri'") }
        guard let delivery = root.child("ServiceDelivery") else { throw .malformed(path: "Siri.ServiceDelivery", reason: "missing") }
        let deliveries = delivery.children(named: "FacilityMonitoringDelivery")
        guard !deliveries.isEmpty else {
            throw .unrecognisedFormat("SIRI ServiceDelivery without FacilityMonitoringDelivery (not SIRI-FM)")
        }
        let conditions = deliveries.flatMap { $0.children(named: table) }
        try limits.check(itemCount: conditions.count)
        var notices = FeedNotices()
        var units: [FacilityUnit] = []
        units.reserveCapacity(conditions.count)
        for (index, condition) in conditions.enumerated() {
            let facility = condition.child("Facility")
            guard let unit = text(condition.child("FacilityRef")) ?? text(facility?.child("FacilityCode")) else {
                notices.add(table, line: index + 1, "condition has neither FacilityRef nor Facility/FacilityCode; skipped")
                continue
            }
            let word = text(condition.descendant("FacilityStatus", "Status"))
            let status = word.flatMap(FacilityUnit.Status.init(rawValue:))
            if status == nil {
                notices.add(table, line: index + 1, "\(UpstreamText.quoted(unit)): Status '\(UpstreamText.quoted(word ?? ""))' is none of SIRI's four; read as unknown")
            }
            let place = facility?.child("FacilityLocation")
            let stops = ["StopPlaceRef", "StopPointRef"].compactMap { place?.child($0).flatMap(text) }
            units.append(FacilityUnit(
                unitID: unit, facility: FacilityKind(feedWord: text(facility?.child("FacilityClass"))), status: status ?? .unknown,
                since: time(condition.descendant("ValidityPeriod", "StartTime"), local),
                expectedBack: time(condition.descendant("ValidityPeriod", "EndTime"), local),
                description: text(condition.descendant("FacilityStatus", "Description")) ?? text(facility?.child("Description")) ?? "",
                location: .init(stopIDs: stops)))
        }
        let produced = time(delivery.child("ResponseTimestamp"), local)
        return FacilitiesDecoder.Feed(format: .siriFM, units: units, producedAt: produced, notices: notices)
    }

    private static func text(_ element: MarkupElement?) -> String? {
        guard let text = element.map({ UpstreamText.trimmed($0.text) }), !text.isEmpty else { return nil }
        return text
    }

    private static func time(_ element: MarkupElement?, _ local: TimeZoneRules) -> Instant? {
        text(element).flatMap { ISO8601Time.instant($0, localTime: local) }
    }
}
