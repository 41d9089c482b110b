// expect: does not conform to protocol 'AnswerForm'
// A form of an answer (`AnswerForm`) with keys of its own instead of the answer's: a member the
// answer gains would not be asked of it.
import StopSheetProtocol
@testable import StopSheetDaemon

struct HealthChangedWithItsOwnKeys: AnswerForm {
    typealias Encodes = Answer.HealthChanged
    enum CodingKeys: String, CodingKey { case subscription, seq, health }
    let subscription: String
    let seq: Int
    let health: PreEncoded<Answer.Health>

    static func member(_ key: CodingKeys) -> FormMember<Self> { fatalError() }
}
