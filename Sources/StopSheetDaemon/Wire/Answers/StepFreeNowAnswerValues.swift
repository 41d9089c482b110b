import StopSheetCore
import StopSheetProtocol

/// `accessibilityButton.now` as an answer (`Answer.StepFreeNow`, `.PlatformAccess`,
/// `.FacilityOutage`): encoded once per station when a snapshot is built, and taken as it is by
/// every sheet and `station` answer of that snapshot.
extension StepFreeNow {
    /// `zone`: the agency's, which a lift-status unit's times are shown in.
    func answer(in zone: TimeZoneRules) -> Answer.StepFreeNow {
        Answer.StepFreeNow(stepFree: stepFree, basis: basis, complete: complete, platforms: platforms.map(\.answer),
                           outages: outages.map { $0.answer(in: zone) }, reason: reason?.rawValue)
    }

    /// `answer(in:)`, encoded: once per station when a snapshot is built.
    func encoded(in zone: TimeZoneRules) -> PreEncoded<Answer.StepFreeNow> { PreEncoded(answer(in: zone)) }
}

extension StepFreeNow.PlatformAccess {
    var answer: Answer.PlatformAccess {
        Answer.PlatformAccess(stopId: stopID, name: name, entry: entry, exit: exit,
                              via: via?.map { Answer.StepFreeWay(id: $0.id, name: $0.name, entry: $0.entry, exit: $0.exit) })
    }
}

extension StepFreeNow.Outage {
    func answer(in zone: TimeZoneRules) -> Answer.FacilityOutage {
        Answer.FacilityOutage(alertId: alertID ?? Answer.FacilityOutage.noAlert, facility: facility, facilityId: facilityID, pathways: pathways, source: source, status: status,
                              since: since.map(zone.iso8601), expectedBack: expectedBack.map(zone.iso8601), description: description,
                              unplaced: unplaced, candidates: candidates.isEmpty ? nil : candidates, placedBy: placedBy,
                              platforms: platforms.isEmpty ? nil : platforms)
    }
}
