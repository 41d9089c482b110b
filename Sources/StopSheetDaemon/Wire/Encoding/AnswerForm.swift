import StopSheetProtocol

/// An answer type written with some of its members encoded before (a snapshot's alerts, `now`,
/// sheets and health), tied to its answer by type, so that a form that drifts from its answer
/// does not compile:
/// - its keys are the answer's (`CodingKeys == Encodes.CodingKeys`): a form with keys of its own
///   does not conform, and one missing a member of the answer does not synthesise `Encodable`
///   ("CodingKey case … does not match any stored properties");
/// - each member is of its answer member's type, or `PreEncoded` of it, or a form of it, and left
///   out or `null` when absent as the answer's is (`T?` where the answer's is `T?`, `Nullable`
///   where it is `Nullable`), or never absent: `member(_:)` pairs them by key path, in a switch
///   over the keys that must be exhaustive, and a `FormMember` is made of no other pair of types.
///   The function is never called; it is there for the compiler.
/// What Swift cannot say of a form (the order of its members is its keys', by synthesis; the
/// name of the property `member(_:)` names for a key) the encoder does by construction: members
/// are written by their keys, in the keys' order.
protocol AnswerForm: Encodable {
    associatedtype Encodes: AnswerObject
    associatedtype CodingKeys: CodingKey where CodingKeys == Encodes.CodingKeys
    /// The form's member under `key` and the answer's: a compile-time check only.
    static func member(_ key: CodingKeys) -> FormMember<Self>
}

/// One of a form's members beside its answer's, made only of types that encode alike: the same
/// type, `PreEncoded` of it, a form of it; absent as the answer's is (left out for `T?`, `null`
/// for `Nullable<T>`), or never absent where the answer's may be (a member every answer of this
/// form has: a train sheet's `stationId`, its `accessibilityButton`). A form member left out
/// where the answer's is `null`, or `null` where the answer's is left out, matches no initializer.
struct FormMember<Form: AnswerForm> {
    init<Value>(_ form: KeyPath<Form, Value>, _ answer: KeyPath<Form.Encodes, Value>) {}
    init<Value>(_ form: KeyPath<Form, Value>, _ answer: KeyPath<Form.Encodes, Value?>) {}
    init<Value>(_ form: KeyPath<Form, Value>, _ answer: KeyPath<Form.Encodes, Nullable<Value>>) {}
    init<Value>(_ form: KeyPath<Form, PreEncoded<Value>>, _ answer: KeyPath<Form.Encodes, Value>) {}
    init<Value>(_ form: KeyPath<Form, PreEncoded<Value>>, _ answer: KeyPath<Form.Encodes, Value?>) {}
    init<Value>(_ form: KeyPath<Form, PreEncoded<Value>>, _ answer: KeyPath<Form.Encodes, Nullable<Value>>) {}
    init<Value>(_ form: KeyPath<Form, PreEncoded<Value>?>, _ answer: KeyPath<Form.Encodes, Value?>) {}
    init<Value>(_ form: KeyPath<Form, Nullable<PreEncoded<Value>>>, _ answer: KeyPath<Form.Encodes, Nullable<Value>>) {}
    init<Part: AnswerForm>(_ form: KeyPath<Form, Part>, _ answer: KeyPath<Form.Encodes, Part.Encodes>) {}
    init<Part: AnswerForm>(_ form: KeyPath<Form, Part>, _ answer: KeyPath<Form.Encodes, Part.Encodes?>) {}
    init<Part: AnswerForm>(_ form: KeyPath<Form, Part>, _ answer: KeyPath<Form.Encodes, Nullable<Part.Encodes>>) {}
}
