import StopSheetCore
import StopSheetProtocol

/// Members of an object encoded without its braces, to be written among other members
/// (`JSONWriter.members`): a snapshot's sheet, whose `data` each answer fills in (`MemberSlot`).
///
/// Kept in pieces: the bytes written for these members alone, and the big values encoded before
/// and given as `shared:` (a snapshot's alert members, the same array for every station with the
/// same alerts), held by reference rather than copied into each sheet. A network's stations then
/// share their alert bytes instead of each holding a copy (tens of megabytes at a hundred times
/// CTA's size), and an output that holds shared pieces (`OutputBuffer`) sends them as they are.
///
/// A member given as a `MemberSlot` has its name written where its type's `CodingKeys` put it, and its
/// value left out, between two pieces: `object(filling:)` puts the value there. So the value
/// goes where the encoder would have written it, whatever the member's place.
struct EncodedMembers: Sendable, Equatable {
    /// In order; each piece is whole JSON text only together with its neighbours (and the slot's
    /// value, when there is one).
    let pieces: [[UInt8]]
    /// Where the slot's value goes: before `pieces[slot.before]` (or after the last); and the
    /// type it takes.
    let slot: SlotPosition?

    struct SlotPosition: Sendable, Equatable {
        let before: Int
        let type: ObjectIdentifier
        /// The member's name.
        let name: String
    }

    /// The members of `value`, an answer object (`AnswerEncoding`); `capacity`: about how many
    /// bytes the members' own pieces take, so they are allocated once.
    init(capacity: Int = 0, encoding value: some Encodable) {
        self.init(AnswerEncoding.members(of: value, capacity: capacity))
    }

    fileprivate init(_ parts: (pieces: [[UInt8]], slots: [SlotPosition])) {
        precondition(parts.slots.count <= 1, "members with more than one slot")
        (pieces, slot) = (parts.pieces, parts.slots.first)
    }

    /// The object of these members alone: they have no slot.
    var object: [UInt8] {
        precondition(slot == nil, "members with a slot are written with its value")
        return .object { $0.members(self, filling: []) }
    }

    /// The object of these members with `value` in their slot, which takes an `Encodes`.
    func object<Encodes>(filling value: PreEncoded<Encodes>) -> [UInt8] {
        precondition(slot?.type == ObjectIdentifier(Encodes.self), "a slot filled with a value of another type, or no slot")
        return .object { $0.members(self, filling: value.bytes) }
    }
}

/// The members of an object encoded with `MemberSlot`s for some of its members, at any depth: what
/// stays the same between its uses, encoded once, and the places of what changes, in
/// `CodingKeys` order (a train sheet's members, the same for every station with the same button
/// but for the station's id, name, alerts and `now`). `members(filling:)` puts values there.
struct EncodedTemplate: Sendable {
    private let pieces: [[UInt8]]
    private let slots: [EncodedMembers.SlotPosition]

    init(members value: some Encodable) {
        (pieces, slots) = AnswerEncoding.members(of: value, capacity: 0)
    }

    /// The members with `fills` in the slots, in order, each for the member and of the type its
    /// slot takes (checked); `capacity`: about how many bytes they take besides shared pieces.
    func members(capacity: Int, filling fills: [SlotFill]) -> EncodedMembers {
        precondition(fills.count == slots.count, "a template filled with \(fills.count) values for \(slots.count) slots")
        var sink = AnswerSink(capacity: capacity)
        var next = 0
        // Read in place: a fill copied out of the array costs a retain and a release of each string.
        fills.withUnsafeBufferPointer { fills in
            for (index, piece) in pieces.enumerated() {
                while next < slots.count, slots[next].before == index {
                    fills[next].write(into: &sink, for: slots[next])
                    next += 1
                }
                sink.append(shared: piece)
            }
            while next < slots.count {
                fills[next].write(into: &sink, for: slots[next])
                next += 1
            }
        }
        return EncodedMembers(sink.pieces())
    }
}

/// What goes in one slot of an `EncodedTemplate`: the member it is for, and a value of the type
/// the slot takes, encoded before, or a string, or a slot again, filled later.
struct SlotFill {
    private enum Value {
        case encoded([UInt8])
        case string(String)
        /// Three strings joined: each one's escaped content between one pair of quotes, which is
        /// the joined string's encoding, since escapes are per code point (a dialog's message
        /// around a station's name, without making the string).
        case joined(String, String, String)
        case later
    }

    private let name: String
    private let type: ObjectIdentifier
    private let value: Value

    init<Encodes>(_ key: some CodingKey, _ value: PreEncoded<Encodes>) {
        (name, type, self.value) = (key.stringValue, ObjectIdentifier(Encodes.self), .encoded(value.bytes))
    }

    init(_ key: some CodingKey, string: String) { (name, type, value) = (key.stringValue, ObjectIdentifier(String.self), .string(string)) }

    init(_ key: some CodingKey, joining first: String, _ second: String, _ third: String) {
        (name, type, value) = (key.stringValue, ObjectIdentifier(String.self), .joined(first, second, third))
    }

    init<Encodes>(_ key: some CodingKey, later: MemberSlot<Encodes>) { (name, type, value) = (key.stringValue, ObjectIdentifier(Encodes.self), .later) }

    fileprivate func write(into sink: inout AnswerSink, for slot: EncodedMembers.SlotPosition) {
        precondition(slot.name == name && slot.type == type, "\(name) put in the slot of \(slot.name), or a value of another type")
        switch value {
        case .encoded(let bytes): sink.append(shared: bytes)
        case .string(let string): sink.write(string: string)
        case .joined(let first, let second, let third):
            sink.write(UInt8(ascii: "\""))
            sink.write(stringContent: first)
            sink.write(stringContent: second)
            sink.write(stringContent: third)
            sink.write(UInt8(ascii: "\""))
        case .later: sink.leaveSlot(type)
        }
    }
}

/// A member whose value is given later, when its object is put together
/// (`EncodedMembers.object(filling:)`, `EncodedTemplate.filled`): the encoder writes its name in
/// `CodingKeys` order and leaves the value's place in the pieces.
struct MemberSlot<Encodes: Sendable>: AnswerMember {
    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(SlotMark(type: ObjectIdentifier(Encodes.self)))
    }
}

/// What a `MemberSlot` encodes as; only `AnswerEncoder` writes it.
struct SlotMark: Encodable {
    let type: ObjectIdentifier

    func encode(to encoder: any Encoder) throws { preconditionFailure("a slot is left only by AnswerEncoder") }
}
