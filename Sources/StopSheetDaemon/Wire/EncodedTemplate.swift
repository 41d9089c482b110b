import StopSheetCore
import StopSheetProtocol

/// An answer object's members encoded once, with places for what changes between its uses (an
/// `Encodes` object's, whatever form it was given in): a
/// train sheet is the same for every station with one step-free status and agency but for the
/// station's id, name, alerts, the dialog's message and `now` (`EncodedButton`). The value is
/// built with a `Slot` in each such member, whose type the member's own binds (a `Slot<String>`
/// where the answer takes a string); `members(capacity:_:)` puts a value of the slot's type in
/// each place, so each goes where the encoder wrote the member, in `CodingKeys` order.
struct EncodedTemplate<Encodes>: Sendable {
    private let pieces: [[UInt8]]
    /// In wire order.
    private let holes: [EncodedMembers.Hole]
    private let slotCount: Int

    /// `value`'s members, with its `Slot`s numbered 0..<`slots`, each once.
    init<Form: AnswerMember>(members value: Form, slots: Int) where Form.Encodes == Encodes {
        var sink = EncodedMembers.Pieces(capacity: 0)
        AnswerEncoding.writeMembers(value, into: &sink)
        (pieces, holes) = sink.finish()
        slotCount = slots
        precondition(holes.map(\.slot).sorted() == Array(0..<slots), "a template whose slots are not 0..<\(slots), each once")
    }

    /// The members with the values `fill` puts in the slots; `capacity`: about how many bytes
    /// they take besides shared pieces.
    func members(capacity: Int, _ fill: (inout TemplateFill) -> Void) -> EncodedMembers {
        var sink = EncodedMembers.Pieces(capacity: capacity)
        write(into: &sink, fill)
        return EncodedMembers(sink)
    }

    /// Appends the members with the values `fill` puts in the slots.
    func write(into sink: inout EncodedMembers.Pieces, _ fill: (inout TemplateFill) -> Void) {
        // The values live on the stack for the one use: an array would be allocated per use.
        withUnsafeTemporaryAllocation(of: SlotContent.self, capacity: slotCount) { storage in
            storage.initialize(repeating: .none)
            defer { storage.deinitialize() }
            var values = TemplateFill(storage)
            fill(&values)
            var next = 0
            for (index, piece) in pieces.enumerated() {
                while next < holes.count, holes[next].before == index {
                    values.write(slot: holes[next].slot, type: holes[next].type, into: &sink)
                    next += 1
                }
                sink.append(shared: piece)
            }
            while next < holes.count {
                values.write(slot: holes[next].slot, type: holes[next].type, into: &sink)
                next += 1
            }
        }
    }
}

extension PreEncoded {
    /// The object of `template`'s members with the values `fill` puts in its slots (none a hole).
    init(_ template: EncodedTemplate<Encodes>, capacity: Int, _ fill: (inout TemplateFill) -> Void) {
        var sink = EncodedMembers.Pieces(capacity: capacity)
        sink.write(UInt8(ascii: "{"))
        template.write(into: &sink, fill)
        sink.write(UInt8(ascii: "}"))
        self.init(encodedBy: sink)
    }

    /// An array of objects, each from a template of `Element` (`TemplateArray.append`).
    init<Element>(capacity: Int, _ elements: (inout TemplateArray<Element>) -> Void) where Encodes == [Element] {
        var array = TemplateArray<Element>(sink: EncodedMembers.Pieces(capacity: capacity))
        array.sink.write(UInt8(ascii: "["))
        elements(&array)
        array.sink.write(UInt8(ascii: "]"))
        self.init(encodedBy: array.sink)
    }
}

/// The elements of an array of `Element` objects, each written from a template.
struct TemplateArray<Element>: ~Copyable {
    fileprivate var sink: EncodedMembers.Pieces
    private var count = 0

    fileprivate init(sink: consuming EncodedMembers.Pieces) { self.sink = sink }

    mutating func append(_ template: EncodedTemplate<Element>, _ fill: (inout TemplateFill) -> Void) {
        if count > 0 { sink.write(UInt8(ascii: ",")) }
        count += 1
        sink.write(UInt8(ascii: "{"))
        template.write(into: &sink, fill)
        sink.write(UInt8(ascii: "}"))
    }
}

/// A member of an answer given per use of an `EncodedTemplate`: slot `index`, for a `Value`.
struct Slot<Value: SlotValue>: AnswerMember {
    typealias Encodes = Value.Encodes
    let index: Int

    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(SlotMark(index: index, type: ObjectIdentifier(Encodes.self)))
    }
}

/// What a `Slot` encodes as; only `AnswerEncoder` writes it, as a hole in its pieces.
struct SlotMark: Encodable {
    let index: Int
    let type: ObjectIdentifier

    func encode(to encoder: any Encoder) throws { preconditionFailure("a slot is left only by AnswerEncoder") }
}

/// A value a slot takes: a string, escaped when written, or a value encoded before.
protocol SlotValue: AnswerMember {
    var slotContent: SlotContent { get }
}

enum SlotContent {
    case none
    case string(String)
    /// Three strings joined, written without joining them (a dialog's message around a station's
    /// name): each one's escaped content between one pair of quotes is the joined string's
    /// encoding, since escapes are per code point.
    case joined(String, String, String)
    case encoded([UInt8])
    /// Left as the members' hole, filled per answer (`EncodedMembers.object(filling:)`).
    case hole
}

extension String: SlotValue {
    var slotContent: SlotContent { .string(self) }
}

extension PreEncoded: SlotValue {
    var slotContent: SlotContent { .encoded(bytes) }
}

/// The values of one use of a template, by slot; each slot takes one.
struct TemplateFill: ~Copyable {
    private let values: UnsafeMutableBufferPointer<SlotContent>

    fileprivate init(_ values: UnsafeMutableBufferPointer<SlotContent>) { self.values = values }

    mutating func put<Value: SlotValue>(_ slot: Slot<Value>, _ value: Value) { values[slot.index] = value.slotContent }

    /// `first + second + third` in a slot that takes a string, without making it.
    mutating func put(_ slot: Slot<String>, joining first: String, _ second: String, _ third: String) {
        values[slot.index] = .joined(first, second, third)
    }

    /// Leaves `slot` as the members' hole: each answer puts its own value there.
    mutating func leave<Value: SlotValue>(_ slot: Slot<Value>) { values[slot.index] = .hole }

    fileprivate func write(slot: Int, type: ObjectIdentifier, into sink: inout EncodedMembers.Pieces) {
        switch values[slot] {
        case .string(let string): sink.write(string: string)
        case .joined(let first, let second, let third):
            sink.write(UInt8(ascii: "\""))
            sink.write(stringContent: first)
            sink.write(stringContent: second)
            sink.write(stringContent: third)
            sink.write(UInt8(ascii: "\""))
        case .encoded(let bytes): sink.append(shared: bytes)
        case .hole: sink.leaveHole(slot: slot, type: type)
        case .none: preconditionFailure("slot \(slot) of a template given no value")
        }
    }
}
