import StopSheetProtocol

/// An answer type written with some of its members encoded before (a snapshot's alerts, `now`,
/// sheets and health). Each form declares `typealias CodingKeys = Answer.….CodingKeys`, so a
/// member added to the answer and missing in the form does not compile ("CodingKey case … does
/// not match any stored properties"); the protocol itself does not require that alias. A member's
/// type is meant to be the answer's, `PreEncoded` of it, or one that encodes the same
/// (`OrderedMembers` for a `[String: V]`); the compiler does not check it, the tests that read
/// each answer back as its type do.
protocol AnswerForm: Encodable {
    associatedtype Encodes: AnswerObject
}
