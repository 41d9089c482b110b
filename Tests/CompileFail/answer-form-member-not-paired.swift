// expect: switch must be exhaustive
// A form of an answer (`AnswerForm`) whose `member(_:)` leaves a key out (as it would a member
// added to the answer since): its member's type would go unchecked.
import StopSheetProtocol
@testable import StopSheetDaemon

struct SheetChangedUnpairedSheet: AnswerForm {
    typealias Encodes = Answer.SheetChanged
    typealias CodingKeys = Answer.SheetChanged.CodingKeys
    let subscription: String
    let seq: Int
    let stopId: String
    let sheet: Nullable<PreEncoded<Answer.Sheet>>

    static func member(_ key: CodingKeys) -> FormMember<Self> {
        switch key {
        case .subscription: FormMember(\.subscription, \.subscription)
        case .seq: FormMember(\.seq, \.seq)
        case .stopId: FormMember(\.stopId, \.stopId)
        }
    }
}
