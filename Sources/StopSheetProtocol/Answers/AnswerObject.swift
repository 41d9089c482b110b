/// The answers and notification payloads of protocol.md, as plain `Codable` values, for both
/// sides: the daemon builds these values and encodes them (their synthesised `Encodable`, which
/// writes the members in `CodingKeys` order, the wire's), clients decode them (`AnswerDecoder`),
/// and `rpc.discover` describes them (`AnswerSchema`). Renaming a member is then a compile error
/// on both sides, and adding one is a case of `CodingKeys`, a property and its initializer's
/// parameter here (no parameter has a default, an optional member's included, so none is
/// forgotten); the property's type also says whether an absent value is left out (`T?`) or
/// written as `null` (`Nullable<T>`). The compiler then points at each place the daemon builds
/// the value, and at each form the daemon writes it in with parts encoded before: its
/// `AnswerForm`s have these `CodingKeys`, and each member is of the answer's type, `PreEncoded`
/// of it or a form of it, left out or `null` alike (`FormMember`).
public enum Answer {}

/// One object of an answer: its members are its `CodingKeys`, in wire order. An absent member is
/// left out when its type is a plain optional (`T?`: a member that only some answers have, such
/// as a bus sheet's `stopId`), and written as `null` when it is `Nullable<T>`: the type says
/// which, the same for the encoder, the schema, the client and the forms.
public protocol AnswerObject: Codable, Equatable, Sendable {
    associatedtype CodingKeys: AnswerKey
    /// One line for the schema's `description`; its name there is the type's.
    static var summary: String { get }
}

/// A member name of an answer object: the only place the name is spelled.
public protocol AnswerKey: CodingKey, CaseIterable, Hashable, Sendable, RawRepresentable where RawValue == String {
    /// Which of the members left out when absent an object always has, by the word of one of its
    /// members (a train sheet has `stationId`…, a bus sheet `stopId`): the schema requires them of
    /// that variant. A fact of the schema alone, between members' values, which a type could say
    /// only by splitting the object in two (see architecture.md); the schema recorder throws when
    /// it names a member that is not left out when absent.
    static var variants: AnswerVariants<Self>? { get }
}

extension AnswerKey {
    public static var variants: AnswerVariants<Self>? { nil }
}

/// The variants of an object, told apart by the word of its `discriminator` member.
public struct AnswerVariants<Key: AnswerKey>: Sendable {
    public let discriminator: Key
    /// Word → the members left out when absent that this variant always has.
    public let members: [(word: String, keys: [Key])]

    public init(by discriminator: Key, _ members: [(word: String, keys: [Key])]) {
        self.discriminator = discriminator
        self.members = members
    }
}

/// A closed word of the protocol (tone, step-free, kinds, statuses): a string enum that the schema
/// lists in full.
public protocol AnswerWord: Codable, CaseIterable, Sendable, RawRepresentable where RawValue == String {}

extension KeyedEncodingContainer {
    /// A word member as its string, which is what its own `encode(to:)` writes (no word has another)
    /// without a container of its own: what an answer's synthesised `encode(to:)` calls for it,
    /// this overload being more specific than the generic `encode`. A sheet has four or five
    /// words, and a snapshot build encodes every station's sheet.
    public mutating func encode<Word: AnswerWord>(_ word: Word, forKey key: Key) throws { try encode(word.rawValue, forKey: key) }

    /// An optional word member as its string, or left out.
    public mutating func encodeIfPresent<Word: AnswerWord>(_ word: Word?, forKey key: Key) throws { try encodeIfPresent(word?.rawValue, forKey: key) }
}
