import StopSheetCore
import StopSheetProtocol

/// How the daemon writes its answers: it builds `Answer` values (`StopSheetProtocol`), and their
/// synthesised `Encodable` writes each member under its `CodingKeys` name, in `CodingKeys`
/// order, through this encoder. A member of the wrong type does not compile, and none is written
/// out of order or forgotten. Values encoded before (a snapshot's alerts, a station's `now`) are
/// given as `PreEncoded` and spliced as they are.
///
/// Its `null`s follow `AnswerObject`: an absent optional member is `null`, unless its key is
/// `omittable` (then it is left out). Keys are the protocol's names, plain ASCII (checked in debug
/// builds), so they need no escape.
enum AnswerEncoding {
    /// The JSON of `value`.
    static func encode<T: Encodable>(_ value: T, capacity: Int = 0) -> [UInt8] {
        var sink = Sink(capacity: capacity)
        withUnsafeMutablePointer(to: &sink) { AnswerEncoder.write(value, $0) }
        return sink.joined()
    }

    /// Appends the members of `value`, an object, without its braces (`EncodedMembers`).
    static func writeMembers<T: Encodable>(_ value: T, into sink: inout Sink) {
        withUnsafeMutablePointer(to: &sink) { AnswerEncoder.write(value, $0, bare: true) }
    }

    /// What the encoder writes into: bytes, and big values encoded before as pieces of their own.
    typealias Sink = EncodedMembers.Pieces
}

/// The JSON of an `Encodes` value, encoded before: written as it is wherever an answer takes an
/// `Encodes` (`AnswerMember`). Made only by encoding such a value, or by joining such pieces into
/// an array, so its bytes are always what the value would encode to. A method's handler answers
/// with one of its `Result` (`MethodReply`).
public struct PreEncoded<Encodes: Sendable>: AnswerMember, Equatable {
    let bytes: [UInt8]

    init(_ value: Encodes, capacity: Int = 0) where Encodes: Encodable { bytes = AnswerEncoding.encode(value, capacity: capacity) }

    /// A value given in a form that encodes as `Encodes` (`Answer.StatsOf` for `Answer.Stats`…).
    init<Form: AnswerMember>(_ value: Form) where Form.Encodes == Encodes { bytes = AnswerEncoding.encode(value) }

    /// `rpc.discover`'s document, which is JSON, not an answer type.
    init(document: JSON) where Encodes == JSON { bytes = document.encoded }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// What an encoding of an `Encodes` wrote (`EncodedTemplate`): it has no hole.
    init(encodedBy sink: AnswerEncoding.Sink) { bytes = sink.joined() }

    /// Bytes put together from `Encodes`'s own pieces, encoded before: a train sheet, its members
    /// and its `data` (`SheetData.sheet`), and nothing else.
    init(splicedSheet bytes: [UInt8]) where Encodes == Answer.Sheet { self.bytes = bytes }

    /// An array of values each encoded before.
    init<Element>(_ elements: [PreEncoded<Element>]) where Encodes == [Element] {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: element.bytes)
        }
        bytes.append(UInt8(ascii: "]"))
        self.init(bytes: bytes)
    }

    /// The same bytes in the same storage: this very encoding, not only an equal one.
    func isStored(as other: PreEncoded) -> Bool {
        bytes.withUnsafeBufferPointer { mine in other.bytes.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress && $0.count == mine.count } }
    }

    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(SplicedJSON(bytes: bytes))
    }
}

/// A JSON object whose members are given in order, by names known only at run time (`stats`'
/// counts by method, `subscribe`'s sheets by stop id as given): what a `[String: Value]` encodes
/// to, in that order rather than a dictionary's.
struct OrderedMembers<Value: AnswerMember>: AnswerMember {
    typealias Encodes = [String: Value.Encodes]
    let members: [(name: String, value: Value)]

    init(_ members: [(name: String, value: Value)]) { self.members = members }

    func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: RunTimeKey.self)
        for (name, value) in members { try object.encode(value, forKey: RunTimeKey(stringValue: name)) }
    }
}

/// A member name made at run time: escaped when written.
private struct RunTimeKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Complete JSON bytes; only `AnswerEncoder` writes them (`PreEncoded`).
private struct SplicedJSON: Encodable {
    let bytes: [UInt8]

    func encode(to encoder: any Encoder) throws { preconditionFailure("encoded JSON is spliced only by AnswerEncoder") }
}

/// What one value has opened while its `encode(to:)` runs: `write` closes it after.
private struct Frame {
    enum Kind { case none, object, array, single }
    var kind = Kind.none
    /// The object or array has an element, so the next needs a comma.
    var filled = false
    /// An object's members alone, without its braces.
    let bare: Bool
}

/// The `Encoder` one value is encoded through, writing straight into the sink.
private struct AnswerEncoder: Encoder {
    typealias Sink = AnswerEncoding.Sink
    let sink: UnsafeMutablePointer<Sink>
    let frame: UnsafeMutablePointer<Frame>
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Appends the JSON of `value`.
    static func write<T: Encodable>(_ value: T, _ sink: UnsafeMutablePointer<Sink>, bare: Bool = false) {
        var frame = Frame(bare: bare)
        withUnsafeMutablePointer(to: &frame) { frame in
            do {
                try value.encode(to: AnswerEncoder(sink: sink, frame: frame))
            } catch {
                preconditionFailure("an answer's encoding threw: \(error)")  // nothing here throws
            }
        }
        precondition(!bare || frame.kind == .object, "members of something not an object")
        switch frame.kind {
        case .object: if !bare { sink.pointee.write(UInt8(ascii: "}")) }
        case .array: sink.pointee.write(UInt8(ascii: "]"))
        case .single: break
        case .none: preconditionFailure("\(T.self) encoded nothing")
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        // A second keyed container of one value goes on with its object (`Answer.Station`).
        if frame.pointee.kind != .object {
            precondition(frame.pointee.kind == .none, "one value encoded as two")
            frame.pointee.kind = .object
            if !frame.pointee.bare { sink.pointee.write(UInt8(ascii: "{")) }
        }
        return KeyedEncodingContainer(Members<Key>(sink: sink, frame: frame))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        precondition(frame.pointee.kind == .none, "one value encoded as two")
        frame.pointee.kind = .array
        sink.pointee.write(UInt8(ascii: "["))
        return Elements(sink: sink, frame: frame)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        precondition(frame.pointee.kind == .none, "one value encoded as two")
        frame.pointee.kind = .single
        return Single(sink: sink)
    }
}

// MARK: Scalars, written the way `JSON` writes them

extension UnsafeMutablePointer where Pointee == AnswerEncoding.Sink {
    fileprivate func null() { pointee.write(UnsafeRawBufferPointer(start: nullText.utf8Start, count: 4)) }

    fileprivate func bool(_ value: Bool) {
        let text: StaticString = value ? "true" : "false"
        pointee.write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    fileprivate func string(_ value: String) { pointee.write(string: value) }

    /// Decimal digits, as `JSON.int` writes them, without making a String.
    fileprivate func integer<T: FixedWidthInteger>(_ value: T) {
        if value == 0 { return pointee.write(UInt8(ascii: "0")) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: an Int64's 20 digits and a sign
        withUnsafeMutableBytes(of: &digits) { buffer in
            var magnitude = value.magnitude
            var start = buffer.count
            while magnitude != 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            }
            if value < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            pointee.write(UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// A floating-point number (no answer has one yet): as Swift spells it, `null` when not finite.
    fileprivate func number<T: BinaryFloatingPoint & LosslessStringConvertible>(_ value: T) {
        guard value.isFinite else { return null() }
        pointee.write(JSON.number(String(value)))
    }

    /// Any other value: through its own `encode(to:)`, as it is when encoded before, or a slot's
    /// place (`EncodedTemplate`).
    fileprivate func value<T: Encodable>(_ value: T) {
        if T.self == SplicedJSON.self {
            let bytes = withUnsafePointer(to: value) { $0.withMemoryRebound(to: SplicedJSON.self, capacity: 1) { $0.pointee.bytes } }
            return pointee.append(shared: bytes)
        }
        if T.self == SlotMark.self {
            let mark = withUnsafePointer(to: value) { $0.withMemoryRebound(to: SlotMark.self, capacity: 1) { $0.pointee } }
            return pointee.leaveHole(slot: mark.index, type: mark.type)
        }
        if T.self == String.self {
            return withUnsafePointer(to: value) { $0.withMemoryRebound(to: String.self, capacity: 1) { string($0.pointee) } }
        }
        AnswerEncoder.write(value, self)
    }
}

private let nullText: StaticString = "null"

/// An object's members.
private struct Members<Key: CodingKey>: KeyedEncodingContainerProtocol {
    typealias Sink = AnswerEncoding.Sink
    let sink: UnsafeMutablePointer<Sink>
    let frame: UnsafeMutablePointer<Frame>
    var codingPath: [any CodingKey] { [] }

    init(sink: UnsafeMutablePointer<Sink>, frame: UnsafeMutablePointer<Frame>) { (self.sink, self.frame) = (sink, frame) }

    /// `"name":`, after a comma unless it is the first.
    private func key(_ key: Key) {
        if frame.pointee.filled { sink.pointee.write(UInt8(ascii: ",")) }
        frame.pointee.filled = true
        if Key.self == RunTimeKey.self { return writeEscaped(key.stringValue) }
        var name = key.stringValue
        assert(name.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }, "a member name that needs escapes")
        name.withUTF8 { sink.pointee.write(key: UnsafeRawBufferPointer($0)) }
    }

    private func writeEscaped(_ name: String) {
        sink.pointee.write(string: name)
        sink.pointee.write(UInt8(ascii: ":"))
    }

    /// Whether `Key` has omittable members at all (most have none): found at the first absent one.
    private var mayOmit: Bool?

    /// An absent member: left out when omittable, else `null`.
    private mutating func absent(_ key: Key) {
        if mayOmit == nil { mayOmit = (Key.self as? any AnswerKey.Type)?.hasOmittable ?? false }
        guard !(mayOmit! && ((key as? any AnswerKey)?.isOmittable ?? false)) else { return }
        self.key(key)
        sink.null()
    }

    mutating func encodeNil(forKey key: Key) {
        self.key(key)
        sink.null()
    }

    mutating func encode(_ value: Bool, forKey key: Key) { self.key(key); sink.bool(value) }
    mutating func encode(_ value: String, forKey key: Key) { self.key(key); sink.string(value) }
    mutating func encode(_ value: Double, forKey key: Key) { self.key(key); sink.number(value) }
    mutating func encode(_ value: Float, forKey key: Key) { self.key(key); sink.number(value) }
    mutating func encode(_ value: Int, forKey key: Key) { self.key(key); sink.integer(value) }
    mutating func encode(_ value: Int8, forKey key: Key) { self.key(key); sink.integer(value) }
    mutating func encode(_ value: Int16, forKey key: Key) { self.key(key); sink.integer(value) }
    mutating func encode(_ value: Int32, forKey key: Key) { self.key(key); sink.integer(value) }
    mutating func encode(_ value: Int64, forKey key: Key) { self.key(key); sink.integer(value) }
    mutating func encode(_ value: UInt, forKey key: Key) { self.key(key); sink.integer(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) { self.key(key); sink.integer(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) { self.key(key); sink.integer(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) { self.key(key); sink.integer(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) { self.key(key); sink.integer(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) { self.key(key); sink.value(value) }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) { if let value { encode(value, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) { if let value { encode(value, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) { if let value { encode(value, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) { if let value { encode(value, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) { if let value { encode(value, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) { if let value { encode(value, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) { if let value { encode(value, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) { if let value { encode(value, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) { if let value { encode(value, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) { if let value { encode(value, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) { if let value { encode(value, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) { if let value { encode(value, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) { if let value { encode(value, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) { if let value { encode(value, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) { if let value { encode(value, forKey: key) } else { absent(key) } }

    // The answers' synthesised encoders never nest containers themselves: each value opens its own.
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("AnswerEncoder writes no nested containers")
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { preconditionFailure("AnswerEncoder writes no nested containers") }
    mutating func superEncoder() -> any Encoder { preconditionFailure("AnswerEncoder writes no super encoders") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { preconditionFailure("AnswerEncoder writes no super encoders") }
}

/// An array's elements.
private struct Elements: UnkeyedEncodingContainer {
    typealias Sink = AnswerEncoding.Sink
    let sink: UnsafeMutablePointer<Sink>
    let frame: UnsafeMutablePointer<Frame>
    var codingPath: [any CodingKey] { [] }
    private(set) var count = 0

    init(sink: UnsafeMutablePointer<Sink>, frame: UnsafeMutablePointer<Frame>) { (self.sink, self.frame) = (sink, frame) }

    private mutating func separate() {
        if count > 0 { sink.pointee.write(UInt8(ascii: ",")) }
        count += 1
    }

    mutating func encodeNil() { separate(); sink.null() }
    mutating func encode(_ value: Bool) { separate(); sink.bool(value) }
    mutating func encode(_ value: String) { separate(); sink.string(value) }
    mutating func encode(_ value: Double) { separate(); sink.number(value) }
    mutating func encode(_ value: Float) { separate(); sink.number(value) }
    mutating func encode(_ value: Int) { separate(); sink.integer(value) }
    mutating func encode(_ value: Int8) { separate(); sink.integer(value) }
    mutating func encode(_ value: Int16) { separate(); sink.integer(value) }
    mutating func encode(_ value: Int32) { separate(); sink.integer(value) }
    mutating func encode(_ value: Int64) { separate(); sink.integer(value) }
    mutating func encode(_ value: UInt) { separate(); sink.integer(value) }
    mutating func encode(_ value: UInt8) { separate(); sink.integer(value) }
    mutating func encode(_ value: UInt16) { separate(); sink.integer(value) }
    mutating func encode(_ value: UInt32) { separate(); sink.integer(value) }
    mutating func encode(_ value: UInt64) { separate(); sink.integer(value) }
    mutating func encode<T: Encodable>(_ value: T) { separate(); sink.value(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("AnswerEncoder writes no nested containers")
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { preconditionFailure("AnswerEncoder writes no nested containers") }
    mutating func superEncoder() -> any Encoder { preconditionFailure("AnswerEncoder writes no super encoders") }
}

/// One value.
private struct Single: SingleValueEncodingContainer {
    typealias Sink = AnswerEncoding.Sink
    let sink: UnsafeMutablePointer<Sink>
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() { sink.null() }
    mutating func encode(_ value: Bool) { sink.bool(value) }
    mutating func encode(_ value: String) { sink.string(value) }
    mutating func encode(_ value: Double) { sink.number(value) }
    mutating func encode(_ value: Float) { sink.number(value) }
    mutating func encode(_ value: Int) { sink.integer(value) }
    mutating func encode(_ value: Int8) { sink.integer(value) }
    mutating func encode(_ value: Int16) { sink.integer(value) }
    mutating func encode(_ value: Int32) { sink.integer(value) }
    mutating func encode(_ value: Int64) { sink.integer(value) }
    mutating func encode(_ value: UInt) { sink.integer(value) }
    mutating func encode(_ value: UInt8) { sink.integer(value) }
    mutating func encode(_ value: UInt16) { sink.integer(value) }
    mutating func encode(_ value: UInt32) { sink.integer(value) }
    mutating func encode(_ value: UInt64) { sink.integer(value) }
    mutating func encode<T: Encodable>(_ value: T) { sink.value(value) }
}

extension AnswerKey {
    /// Left out, never `null`, when absent.
    fileprivate var isOmittable: Bool { Self.omittable.contains(self) }

    fileprivate static var hasOmittable: Bool { !omittable.isEmpty }
}
