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

    /// The same bytes as `answer(in:)`'s encoding (a test holds them together), from templates:
    /// a snapshot encodes every station's, and the encoder costs several times a template's copies.
    func encoded(in zone: TimeZoneRules) -> PreEncoded<Answer.StepFreeNow> {
        let platforms = PreEncoded<[Answer.PlatformAccess]>(capacity: 96 * self.platforms.count) { array in
            for platform in self.platforms {
                array.append(NowTemplates.platform(entry: platform.entry, exit: platform.exit)) { fill in
                    fill.put(NowTemplates.stopID, platform.stopID)
                    fill.put(NowTemplates.name, platform.name)
                }
            }
        }
        let outages = outages.isEmpty ? NowTemplates.noOutages : PreEncoded(outages.map { $0.answer(in: zone) })
        return PreEncoded(NowTemplates.now(stepFree, basis, complete, reason), capacity: 80 + platforms.bytes.count + outages.bytes.count) { fill in
            fill.put(NowTemplates.platforms, platforms)
            fill.put(NowTemplates.outages, outages)
        }
    }
}

/// `now`'s templates: one per verdict, basis, completeness and reason, with slots for the platforms
/// and the outages, and a platform's, one per pair of entry and exit, with slots for its id and
/// name. Made once, at their first use.
private enum NowTemplates {
    static let platforms = Slot<PreEncoded<[Answer.PlatformAccess]>>(index: 0), outages = Slot<PreEncoded<[Answer.FacilityOutage]>>(index: 1)
    static let stopID = Slot<String>(index: 0), name = Slot<String>(index: 1)
    static let noOutages = PreEncoded<[Answer.FacilityOutage]>([Answer.FacilityOutage]())

    private static let answers: [Bool?] = [nil, true, false]
    private static let platformTemplates = answers.flatMap { entry in
        answers.map { exit in EncodedTemplate(members: Answer.PlatformAccessOf(stopId: stopID, name: name, entry: entry, exit: exit), slots: 2) }
    }
    private static let reasons: [StepFreeNow.Reason?] = [nil] + StepFreeNow.Reason.allCases
    private static let nowTemplates = StepFreeNow.Verdict.allCases.flatMap { verdict in
        StepFreeNow.Basis.allCases.flatMap { basis in
            [false, true].flatMap { complete in
                reasons.map { reason in
                    EncodedTemplate(members: Answer.StepFreeNowOf(stepFree: verdict, basis: basis, complete: complete, platforms: platforms, outages: outages,
                                                                  reason: reason?.rawValue), slots: 2)
                }
            }
        }
    }

    static func platform(entry: Bool?, exit: Bool?) -> EncodedTemplate<Answer.PlatformAccess> {
        platformTemplates[answers.firstIndex(of: entry)! * answers.count + answers.firstIndex(of: exit)!]
    }

    static func now(_ verdict: StepFreeNow.Verdict, _ basis: StepFreeNow.Basis, _ complete: Bool,
                    _ reason: StepFreeNow.Reason?) -> EncodedTemplate<Answer.StepFreeNow> {
        let verdicts = StepFreeNow.Verdict.allCases, bases = StepFreeNow.Basis.allCases
        let index = (verdicts.firstIndex(of: verdict)! - verdicts.startIndex) * bases.count + (bases.firstIndex(of: basis)! - bases.startIndex)
        return nowTemplates[(index * 2 + (complete ? 1 : 0)) * reasons.count + reasons.firstIndex(of: reason)!]
    }
}

extension StepFreeNow.PlatformAccess {
    var answer: Answer.PlatformAccess { Answer.PlatformAccess(stopId: stopID, name: name, entry: entry, exit: exit) }
}

extension StepFreeNow.Outage {
    func answer(in zone: TimeZoneRules) -> Answer.FacilityOutage {
        Answer.FacilityOutage(alertId: alertID, facility: facility, facilityId: facilityID, pathways: pathways, source: source, status: status,
                              since: since.map(zone.iso8601), expectedBack: expectedBack.map(zone.iso8601), description: description,
                              unplaced: unplaced, candidates: candidates.isEmpty ? nil : candidates)
    }
}
