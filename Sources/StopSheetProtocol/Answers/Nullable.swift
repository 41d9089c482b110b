/// An answer member written as `null` when it has no value, where a member of a plain optional
/// type (`T?`) is left out, as Swift's synthesised `encode(to:)` leaves it (`encodeIfPresent`).
/// Which of the two a member is, is its type: the encoder, the schema (`AnswerSchemas`: required
/// and `null` allowed, against not required) and the forms (`FormMember`) all read it there, and
/// no list beside the keys can forget one.
public struct Nullable<Wrapped> {
    public var value: Wrapped?

    public init(_ value: Wrapped?) { self.value = value }
}

extension Nullable: Equatable where Wrapped: Equatable {}
/// `nil` is no value, so that `member == nil` asks what it says (rather than comparing a value
/// that is never nil, as an `Optional` of it, with `nil`).
extension Nullable: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { value = nil }
}
extension Nullable: Sendable where Wrapped: Sendable {}

extension Nullable: Encodable where Wrapped: Encodable {
    /// Alone (an array's element): its value, or `null`.
    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        if let value { try single.encode(value) } else { try single.encodeNil() }
    }
}

extension Nullable: Decodable where Wrapped: Decodable {
    public init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        value = single.decodeNil() ? nil : try single.decode(Wrapped.self)
    }
}

extension KeyedEncodingContainer {
    /// A `Nullable` member under its key, its value or `null`: what an answer's synthesised
    /// `encode(to:)` calls for it, this overload being more specific than the generic `encode`.
    public mutating func encode<Wrapped: Encodable>(_ member: Nullable<Wrapped>, forKey key: Key) throws {
        if let value = member.value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }

    // The scalars' own, so that their values reach the container's `encode` for their type, as
    // a plain optional's do (`encodeIfPresent`), rather than its generic one.
    public mutating func encode(_ member: Nullable<String>, forKey key: Key) throws {
        if let value = member.value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }

    public mutating func encode(_ member: Nullable<Int>, forKey key: Key) throws {
        if let value = member.value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }

    public mutating func encode(_ member: Nullable<Bool>, forKey key: Key) throws {
        if let value = member.value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }

    /// An absent `Nullable` member: `null` under its key.
    private mutating func encodeAbsent(forKey key: Key) throws { try encodeNil(forKey: key) }
}

extension KeyedDecodingContainer {
    /// A `Nullable` member: `null` or, as a plain optional member, absent (a client reading an
    /// answer that leaves it out loses nothing by taking it) is no value. The schema recorder
    /// notes the `decodeNil(forKey:)` asked first: the member may be `null`.
    public func decode<Wrapped: Decodable>(_ type: Nullable<Wrapped>.Type, forKey key: Key) throws -> Nullable<Wrapped> {
        guard contains(key), try !decodeNil(forKey: key) else { return Nullable(nil) }
        return Nullable(try decode(Wrapped.self, forKey: key))
    }
}
