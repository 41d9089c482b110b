// expect: no exact matches in call to initializer
// A form of an answer (`AnswerForm`) whose member is of another type than the answer's (`seq` is
// an `Int` in `Answer.SheetChanged`): its pair in `member(_:)` has no `FormMember`.
import StopSheetProtocol
@testable import StopSheetDaemon

struct SheetChangedWithATextSeq: AnswerForm {
    typealias Encodes = Answer.SheetChanged
    typealias CodingKeys = Answer.SheetChanged.CodingKeys
    let subscription: String
    let seq: String
    let stopId: String
    let sheet: Nullable<PreEncoded<Answer.Sheet>>

    static func member(_ key: CodingKeys) -> FormMember<Self> {
        switch key {
        case .subscription: FormMember(\.subscription, \.subscription)
        case .seq: FormMember(\.seq, \.seq)
        case .stopId: FormMember(\.stopId, \.stopId)
        case .sheet: FormMember(\.sheet, \.sheet)
        }
    }
}
