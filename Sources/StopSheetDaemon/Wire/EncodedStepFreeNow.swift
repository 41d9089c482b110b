import StopSheetCore
import StopSheetProtocol

/// How `accessibilityButton.now` is written (`Answer.StepFreeNow`, `.PlatformAccess`,
/// `.FacilityOutage`): encoded once per station when a snapshot is built (no JSON tree per
/// station), and taken as it is by every sheet and `station` answer of that snapshot.
extension StepFreeNow {
    var encoded: [UInt8] { .object { write(&$0) } }

    func write<Sink>(_ writer: inout JSONWriter<Sink>) {
        writer.members(Answer.StepFreeNow.CodingKeys.self) { writer, key in
            switch key {
            case .stepFree: writer.member(key, word: stepFree)
            case .basis: writer.member(key, word: basis)
            case .complete: writer.member(key, bool: complete)
            case .platforms: writer.array(key, of: platforms) { $1.write(&$0) }
            case .outages: writer.array(key, of: outages) { $1.write(&$0) }
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
    func write<Sink>(_ writer: inout JSONWriter<Sink>) {
        writer.members(Answer.FacilityOutage.CodingKeys.self) { writer, key in
            switch key {
            case .alertId: writer.member(key, string: alertID)
            case .facility: writer.member(key, word: facility)
            case .facilityId: writer.member(key, string: facilityID)
            case .pathways: writer.member(key, strings: pathways)
            }
        }
    }
}
