/// The answers and notification payloads of protocol.md, as plain `Codable` values, for both
/// sides: the daemon builds these values and encodes them (their synthesised `Encodable`, which
/// writes the members in `CodingKeys` order, the wire's), clients decode them (`AnswerDecoder`),
/// and `rpc.discover` describes them (`AnswerSchema`). Renaming a member is then a compile error
/// on both sides, and adding one is a case of `CodingKeys`, a property and its initializer's
/// parameter here (no parameter has a default, an optional member's included, so none is
/// forgotten): the compiler then points at each place the daemon builds the value, where it takes
/// only a value of the member's type, and at each form the daemon writes it in with parts encoded
/// before (its `AnswerForm`s have these `CodingKeys`, and each member of the answer's type,
/// `PreEncoded` of it or a form of it, by the compiler's check).
public enum Answer {}

/// One object of an answer: its members are its `CodingKeys`, in wire order. A member whose
/// property is optional is written as `null` when absent, unless its key is `omittable` (then it
/// is left out: a member that only some answers have, such as a bus sheet's `stopId`).
public protocol AnswerObject: Codable, Equatable, Sendable {
    associatedtype CodingKeys: AnswerKey
    /// One line for the schema's `description`; its name there is the type's.
    static var summary: String { get }
}

/// A member name of an answer object: the only place the name is spelled.
public protocol AnswerKey: CodingKey, CaseIterable, Hashable, Sendable, RawRepresentable where RawValue == String {
    /// Members left out, never `null`, where they do not apply.
    static var omittable: Set<Self> { get }
    /// Which omittable members an object has, by the word of one of its members (a train sheet
    /// has `stationId`…, a bus sheet `stopId`): the schema requires them of that variant.
    static var variants: AnswerVariants<Self>? { get }
}

extension AnswerKey {
    public static var omittable: Set<Self> { [] }
    public static var variants: AnswerVariants<Self>? { nil }
}

/// The variants of an object, told apart by the word of its `discriminator` member.
public struct AnswerVariants<Key: AnswerKey>: Sendable {
    public let discriminator: Key
    /// Word → the omittable members that variant always has.
    public let members: [(word: String, keys: [Key])]

    public init(by discriminator: Key, _ members: [(word: String, keys: [Key])]) {
        self.discriminator = discriminator
        self.members = members
    }
}

/// A closed word of the protocol (tone, step-free, kinds, statuses): a string enum that the schema
/// lists in full.
public protocol AnswerWord: Codable, CaseIterable, Sendable, RawRepresentable where RawValue == String {}
