#if canImport(Glibc)
import Glibc
#endif
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
        var sink = AnswerSink(capacity: capacity)
        withUnsafeMutablePointer(to: &sink) { AnswerEncoder.write(value, $0) }
        return sink.joined()
    }

    /// The members of `value`, an object, without its braces, in pieces (`EncodedMembers`).
    static func members<T: Encodable>(of value: T, capacity: Int) -> (pieces: [[UInt8]], slots: [EncodedMembers.SlotPosition]) {
        var sink = AnswerSink(capacity: capacity)
        withUnsafeMutablePointer(to: &sink) { AnswerEncoder.write(value, $0, bare: true) }
        return sink.pieces()
    }
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

    /// Bytes put together from `Encodes`'s own pieces, encoded before: a sheet's members with its
    /// `data` in their slot (`EncodedMembers.object(filling:)`), and nothing else.
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
    let sink: UnsafeMutablePointer<AnswerSink>
    let frame: UnsafeMutablePointer<Frame>
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Appends the JSON of `value`.
    static func write<T: Encodable>(_ value: T, _ sink: UnsafeMutablePointer<AnswerSink>, bare: Bool = false) {
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

extension UnsafeMutablePointer where Pointee == AnswerSink {
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
        var bytes: [UInt8] = []
        JSON.number(String(value)).encode(into: &bytes)
        pointee.write(bytes)
    }

    /// Any other value: through its own `encode(to:)`, or as it is when encoded before, or a
    /// slot's place.
    fileprivate func value<T: Encodable>(_ value: T) {
        if T.self == SplicedJSON.self {
            let bytes = withUnsafePointer(to: value) { $0.withMemoryRebound(to: SplicedJSON.self, capacity: 1) { $0.pointee.bytes } }
            return pointee.append(shared: bytes)
        }
        if T.self == SlotMark.self {
            return pointee.leaveSlot(withUnsafePointer(to: value) { $0.withMemoryRebound(to: SlotMark.self, capacity: 1) { $0.pointee.type } })
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
    let sink: UnsafeMutablePointer<AnswerSink>
    let frame: UnsafeMutablePointer<Frame>
    var codingPath: [any CodingKey] { [] }

    init(sink: UnsafeMutablePointer<AnswerSink>, frame: UnsafeMutablePointer<Frame>) { (self.sink, self.frame) = (sink, frame) }

    /// `"name":`, after a comma unless it is the first.
    private func key(_ key: Key) {
        let comma = frame.pointee.filled
        frame.pointee.filled = true
        if Key.self == RunTimeKey.self {
            if comma { sink.pointee.write(UInt8(ascii: ",")) }
            sink.pointee.lastKey = key.stringValue
            sink.pointee.write(string: key.stringValue)
            return sink.pointee.write(UInt8(ascii: ":"))
        }
        var name = key.stringValue
        sink.pointee.lastKey = name
        assert(name.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }, "a member name that needs escapes")
        name.withUTF8 { sink.pointee.write(key: UnsafeRawBufferPointer($0), comma: comma) }
    }

    /// `Key`'s omittable member names (most have none): found at the first absent member.
    private var omittable: [String]?

    /// An absent member: left out when omittable, else `null`.
    private mutating func absent(_ key: Key) {
        if omittable == nil { omittable = OmittableMembers.names(of: Key.self) }
        if !omittable.unsafelyUnwrapped.isEmpty, omittable.unsafelyUnwrapped.contains(key.stringValue) { return }
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
    let sink: UnsafeMutablePointer<AnswerSink>
    let frame: UnsafeMutablePointer<Frame>
    var codingPath: [any CodingKey] { [] }
    private(set) var count = 0

    init(sink: UnsafeMutablePointer<AnswerSink>, frame: UnsafeMutablePointer<Frame>) { (self.sink, self.frame) = (sink, frame) }

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
    let sink: UnsafeMutablePointer<AnswerSink>
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

/// Each key type's omittable member names (`AnswerKey.omittable`), found once per type: a
/// conformance cast and a hashed look-up per absent member cost more than the member.
private enum OmittableMembers {
    /// Few types (the protocol's objects): a list beats hashing.
    private static let known = Locked<[(type: ObjectIdentifier, names: [String])]>([])

    static func names(of type: any CodingKey.Type) -> [String] {
        let id = ObjectIdentifier(type)
        if let names = known.withLock({ known in known.first { $0.type == id }?.names }) { return names }
        let names = (type as? any AnswerKey.Type).map { omittable($0) } ?? []
        known.withLock { $0.append((id, names)) }
        return names
    }

    private static func omittable<Key: AnswerKey>(_ type: Key.Type) -> [String] { Key.allCases.filter(Key.omittable.contains).map(\.stringValue) }
}

/// What `AnswerEncoder` writes into: bytes in a buffer of its own, whose appends cost a bounds
/// check and a copy (an array's uniqueness and capacity bookkeeping cost more than the copy, on
/// every key and value), and big values encoded before as pieces of their own, kept by
/// reference. Made and finished by `AnswerEncoding`, which frees its buffer.
struct AnswerSink {
    private var base: UnsafeMutableRawPointer
    private var count = 0
    private var capacity: Int
    /// The pieces before the bytes in the buffer.
    private var done: [[UInt8]] = []
    private var doneBytes = 0
    private var slots: [EncodedMembers.SlotPosition] = []

    init(capacity: Int) {
        self.capacity = max(capacity, 256)
        guard let base = malloc(self.capacity) else { fatalError("out of memory for an answer's bytes") }
        self.base = base
    }

    @inline(__always)
    mutating func write(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    @inline(__always)
    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        (base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    mutating func write(_ bytes: [UInt8]) { bytes.withUnsafeBytes { write($0) } }

    /// A comma if `comma`, then `"name":`, for a name that needs no escape.
    @inline(__always)
    mutating func write(key name: UnsafeRawBufferPointer, comma: Bool) {
        let needed = name.count + 4
        if count + needed > capacity { grow(to: count + needed) }
        var target = base + count
        if comma {
            target.storeBytes(of: UInt8(ascii: ","), as: UInt8.self)
            target += 1
        }
        target.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        if let source = name.baseAddress { (target + 1).copyMemory(from: source, byteCount: name.count) }
        (target + 1 + name.count).storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        (target + 2 + name.count).storeBytes(of: UInt8(ascii: ":"), as: UInt8.self)
        count = base.distance(to: target) + 3 + name.count
    }

    /// A string as JSON: copied between quotes when nothing in it needs an escape (most ids and
    /// names), else escaped by `JSON.encodeString`, the one rule for escapes.
    mutating func write(string: String) {
        var string = string
        let plain = string.withUTF8 { utf8 in
            guard JSON.needsNoEscape(utf8) else { return false }
            let bytes = UnsafeRawBufferPointer(utf8)
            if count + bytes.count + 2 > capacity { grow(to: count + bytes.count + 2) }
            base.storeBytes(of: UInt8(ascii: "\""), toByteOffset: count, as: UInt8.self)
            if let source = bytes.baseAddress { (base + count + 1).copyMemory(from: source, byteCount: bytes.count) }
            base.storeBytes(of: UInt8(ascii: "\""), toByteOffset: count + 1 + bytes.count, as: UInt8.self)
            count += bytes.count + 2
            return true
        }
        guard !plain else { return }
        var escaped: [UInt8] = []
        JSON.encodeString(string, into: &escaped)
        write(escaped)
    }

    /// A string's escaped content, without quotes (`JSON.encodeStringContent`).
    mutating func write(stringContent string: String) {
        var string = string
        let plain = string.withUTF8 { utf8 in
            guard JSON.needsNoEscape(utf8) else { return false }
            write(UnsafeRawBufferPointer(utf8))
            return true
        }
        guard !plain else { return }
        var escaped: [UInt8] = []
        JSON.encodeStringContent(string, into: &escaped)
        write(escaped)
    }

    /// A value big enough to be worth a reference becomes a piece; a small one is copied.
    mutating func append(shared bytes: [UInt8]) {
        guard bytes.count >= OutputBuffer.shareFrom else { return write(bytes) }
        finishBytes()
        done.append(bytes)
        doneBytes += bytes.count
    }

    /// The name of the member written last, for a slot's.
    fileprivate var lastKey = ""

    /// A slot's place (`MemberSlot`), after its member's name: the pieces so far end here.
    mutating func leaveSlot(_ type: ObjectIdentifier) {
        finishBytes()
        slots.append(EncodedMembers.SlotPosition(before: done.count, type: type, name: lastKey))
    }

    /// The bytes in the buffer as a piece of their own.
    private mutating func finishBytes() {
        guard count > 0 else { return }
        done.append(Self.array(base, count))
        doneBytes += count
        count = 0
    }

    private static func array(_ base: UnsafeRawPointer, _ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(start: base, count: count))
            initialized = count
        }
    }

    /// Everything written, as pieces and the slot between them; the buffer is freed.
    consuming func pieces() -> (pieces: [[UInt8]], slots: [EncodedMembers.SlotPosition]) {
        finishBytes()
        free(base)
        return (done, slots)
    }

    /// Everything written, in one array; the buffer is freed.
    fileprivate consuming func joined() -> [UInt8] {
        precondition(slots.isEmpty, "a slot outside a template or members")
        defer { free(base) }
        guard !done.isEmpty else { return Self.array(base, count) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(doneBytes + count)
        for piece in done { bytes.append(contentsOf: piece) }
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: base, count: count))
        return bytes
    }

    private mutating func grow(to needed: Int) {
        let capacity = max(needed, self.capacity * 2)
        // Out of memory is the one failure a byte buffer cannot answer; it is fatal as for an array.
        guard let grown = realloc(base, capacity) else { fatalError("out of memory for an answer's bytes") }
        (base, self.capacity) = (grown, capacity)
    }
}
