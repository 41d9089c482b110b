// expect: no exact matches in call to initializer
// A form (`AnswerForm`) that would write `null` for a member its answer leaves out when absent
// (`Answer.Subscribed.health` is a plain optional, left out; the form's is `Nullable`): its pair
// in `member(_:)` has no `FormMember`. In the answer itself the drift cannot be written: whether a
// member is left out or `null` is its type, not a list beside its keys.
import StopSheetProtocol
@testable import StopSheetDaemon

struct SubscribedWithANullHealth: AnswerForm {
    typealias Encodes = Answer.Subscribed
    typealias CodingKeys = Answer.Subscribed.CodingKeys
    let subscription: String
    let sheets: PreEncoded<[String: Answer.Sheet]>?
    let health: Nullable<PreEncoded<Answer.Health>>

    static func member(_ key: CodingKeys) -> FormMember<Self> {
        switch key {
        case .subscription: FormMember(\.subscription, \.subscription)
        case .sheets: FormMember(\.sheets, \.sheets)
        case .health: FormMember(\.health, \.health)
        }
    }
}
