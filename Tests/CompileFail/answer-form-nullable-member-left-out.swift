// expect: no exact matches in call to initializer
// The reverse drift: a form (`AnswerForm`) that would leave out a member its answer writes as
// `null` (`Answer.SheetChanged.sheet` is `Nullable`: `null` once the stop is no longer known;
// the form's is a plain optional): its pair in `member(_:)` has no `FormMember`.
import StopSheetProtocol
@testable import StopSheetDaemon

struct SheetChangedWithoutANullSheet: AnswerForm {
    typealias Encodes = Answer.SheetChanged
    typealias CodingKeys = Answer.SheetChanged.CodingKeys
    let subscription: String
    let seq: Int
    let stopId: String
    let sheet: PreEncoded<Answer.Sheet>?

    static func member(_ key: CodingKeys) -> FormMember<Self> {
        switch key {
        case .subscription: FormMember(\.subscription, \.subscription)
        case .seq: FormMember(\.seq, \.seq)
        case .stopId: FormMember(\.stopId, \.stopId)
        case .sheet: FormMember(\.sheet, \.sheet)
        }
    }
}
