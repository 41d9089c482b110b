import StopSheetCore
import StopSheetProtocol

/// How `accessibilityButton.now` is written (`Answer.StepFreeNow`, `.PlatformAccess`,
/// `.FacilityOutage`): encoded once per station when a snapshot is built (no JSON tree per
/// station), and taken as it is by every sheet and `station` answer of that snapshot.
extension StepFreeNow {
    /// `zone`: the agency's, which a lift-status unit's times are shown in.
    func encoded(in zone: TimeZoneRules) -> [UInt8] { .object { write(&$0, in: zone) } }

    func write<Sink>(_ writer: inout JSONWriter<Sink>, in zone: TimeZoneRules) {
        writer.members(Answer.StepFreeNow.CodingKeys.self) { writer, key in
            switch key {
            case .stepFree: writer.member(key, word: stepFree)
            case .basis: writer.member(key, word: basis)
            case .complete: writer.member(key, bool: complete)
            case .platforms: writer.array(key, of: platforms) { $1.write(&$0) }
            case .outages: writer.array(key, of: outages) { $1.write(&$0, in: zone) }
            }
        }
    }
}

extension StepFreeNow.PlatformAccess {
    func write<Sink>(_ writer: inout JSONWriter<Sink>) {
        writer.members(Answer.PlatformAccess.CodingKeys.self) { writer, key in
            switch key {
            case .stopId: writer.member(key, string: stopID)
            case .name: writer.member(key, string: name)
            case .entry: writer.member(key, bool: entry)
            case .exit: writer.member(key, bool: exit)
            }
        }
    }
}

extension StepFreeNow.Outage {
    func write<Sink>(_ writer: inout JSONWriter<Sink>, in zone: TimeZoneRules) {
        writer.members(Answer.FacilityOutage.CodingKeys.self) { writer, key in
            switch key {
            case .alertId: writer.member(key, string: alertID)
            case .facility: writer.member(key, word: facility)
            case .facilityId: writer.member(key, string: facilityID)
            case .pathways: writer.member(key, strings: pathways)
            case .source: writer.member(key, word: source)
            case .status: writer.member(key, word: status)
            case .since: writer.member(key, string: since.map(zone.iso8601))
            case .expectedBack: writer.member(key, string: expectedBack.map(zone.iso8601))
            case .description: writer.member(key, string: description)
            }
        }
    }
}
