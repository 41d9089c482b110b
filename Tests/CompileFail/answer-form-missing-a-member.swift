// expect: does not match any stored properties
// A form of an answer (`AnswerForm`) that misses one of the answer's members (`seq`).
import StopSheetProtocol
@testable import StopSheetDaemon

struct SheetChangedMissingSeq: AnswerForm {
    typealias Encodes = Answer.SheetChanged
    typealias CodingKeys = Answer.SheetChanged.CodingKeys
    let subscription: String
    let stopId: String
    let sheet: Nullable<PreEncoded<Answer.Sheet>>

    static func member(_ key: CodingKeys) -> FormMember<Self> { fatalError() }
}
