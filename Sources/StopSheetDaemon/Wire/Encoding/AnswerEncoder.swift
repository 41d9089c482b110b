import StopSheetCore
import StopSheetProtocol

/// How the daemon writes its answers: it builds `Answer` values (`StopSheetProtocol`), and their
/// synthesised `Encodable` writes each member under its `CodingKeys` name, in `CodingKeys`
/// order, through this encoder. A member of the wrong type does not compile, and none is written
/// out of order or forgotten. Values encoded before (a snapshot's alerts, a station's `now`) are
/// given as `PreEncoded` and spliced as they are.
///
/// Its `null`s follow the members' types (`AnswerObject`): an absent member of a plain optional
/// type is left out (`encodeIfPresent`, as any `Encoder`'s), and a `Nullable` one is `null`
/// (`encodeNil`, which its synthesised encoding calls: `Nullable.swift`); the encoder asks nothing
/// of the keys. Keys are the protocol's names, plain ASCII (checked in debug builds), so they
/// need no escape.
enum AnswerEncoding {
    /// The JSON of `value`.
    static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        let sink = AnswerSink()
        AnswerEncoder.write(value, into: sink)
        return sink.joined()
    }

    /// `{` and the members of `value`, an object, without its closing brace, in pieces
    /// (`EncodedSheet`).
    static func openObject<T: Encodable>(_ value: T) -> [[UInt8]] {
        let sink = AnswerSink()
        sink.write(UInt8(ascii: "{"))
        AnswerEncoder.write(value, into: sink, bare: true)
        return sink.pieces()
    }
}

/// What the encoder writes into: bytes, with big values encoded before kept as pieces of their
/// own, by reference (a snapshot's alert arrays, shared by a line's stations), and what each value
/// being encoded has opened. A class, as the standard library's `JSONEncoder` keeps its storage:
/// an `Encoder` and its containers are values handed around by `encode(to:)`, and all of them
/// write into this one sink.
///
/// Its fields skip the run-time exclusivity check (`@exclusivity(unchecked)`, as `SplicedSheets`'):
/// one encoding owns its sink, on one thread, and no access to a field overlaps another; the
/// check's bookkeeping on every byte written made a snapshot's build half again as long.
final class AnswerSink {
    @exclusivity(unchecked) private var tail: [UInt8] = []
    @exclusivity(unchecked) private var done: [[UInt8]] = []
    @exclusivity(unchecked) private var doneBytes = 0
    /// What each value being encoded has opened, the innermost last (`AnswerEncoder.write`).
    @exclusivity(unchecked) fileprivate var frames: [Frame] = []

    /// Room for a typical piece from the start (a sheet's members between its shared alert arrays,
    /// an alert, a `now`), so that most encodings never grow their buffer: a starting size, not a
    /// count of what will be written, which may be any length.
    init() { tail.reserveCapacity(1024) }

    func write(_ byte: UInt8) { tail.append(byte) }
    func write(_ text: String.UTF8View) { tail.append(contentsOf: text) }
    func write(_ value: JSON) { value.encode(into: &tail) }
    func write(string: String) { JSON.encodeString(string, into: &tail) }

    /// `"name":` for a name that needs no escape.
    func write(key name: String) {
        tail.append(UInt8(ascii: "\""))
        tail.append(contentsOf: name.utf8)
        tail.append(UInt8(ascii: "\""))
        tail.append(UInt8(ascii: ":"))
    }

    /// Decimal digits, as `JSON.int` writes them, without making a String: the digits are
    /// appended last first, then turned around in place.
    func write<T: FixedWidthInteger>(integer value: T) {
        if value < 0 { tail.append(UInt8(ascii: "-")) }
        let start = tail.count
        var magnitude = value.magnitude
        repeat {
            tail.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10))
            magnitude /= 10
        } while magnitude != 0
        tail[start...].reverse()
    }

    /// A value encoded before: a piece of its own when it is big enough to be worth a
    /// reference (`OutputBuffer.shareFrom`), else copied.
    func append(shared bytes: [UInt8]) {
        guard bytes.count >= OutputBuffer.shareFrom else { return tail.append(contentsOf: bytes) }
        endPiece()
        done.append(bytes)
        doneBytes += bytes.count
    }

    private func endPiece() {
        guard !tail.isEmpty else { return }
        doneBytes += tail.count
        done.append(takeTail())
    }

    /// What was written since the last piece, in an array of its own size: what an encoding makes
    /// is most often kept (a snapshot keeps a sheet's pieces, an alert, a `now` and a glyph by the
    /// thousand), and holds no spare room; the sink's own buffer stays for what follows.
    private func takeTail() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(tail.count)
        bytes.append(contentsOf: tail)
        tail.removeAll(keepingCapacity: true)
        return bytes
    }

    func pieces() -> [[UInt8]] {
        endPiece()
        return done
    }

    /// Everything written, in one array.
    func joined() -> [UInt8] {
        guard !done.isEmpty else { return takeTail() }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(doneBytes + tail.count)
        for piece in done { bytes.append(contentsOf: piece) }
        bytes.append(contentsOf: tail)
        return bytes
    }
}

/// A JSON object whose members are given in order, by names known only at run time (`stats`'
/// counts by method, `subscribe`'s sheets by stop id as given): what a `[String: Value]` encodes
/// to, in that order rather than a dictionary's.
struct OrderedMembers<Value: Encodable>: Encodable {
    let members: [(name: String, value: Value)]

    init(_ members: [(name: String, value: Value)]) { self.members = members }

    func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: RunTimeKey.self)
        for (name, value) in members { try object.encode(value, forKey: RunTimeKey(stringValue: name)) }
    }
}

/// A member name made at run time: escaped when written.
struct RunTimeKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension AnswerEncoding {
    /// Writes `bytes`, one complete JSON value encoded before (`PreEncoded`), as the value
    /// `encoder` is encoding, when `encoder` is this encoder: false through any other. The cast is
    /// to the concrete type, a comparison of metadata, where one to a protocol looks the
    /// conformance up: a snapshot build splices a few values per station.
    static func splice(_ bytes: [UInt8], through encoder: any Encoder) -> Bool {
        guard let answerEncoder = encoder as? AnswerEncoder else { return false }
        answerEncoder.splice(bytes)
        return true
    }
}

/// What one value has opened while its `encode(to:)` runs: `write` closes it after.
fileprivate struct Frame {
    enum Kind { case none, object, array, single }
    var kind = Kind.none
    /// The object or array has an element, so the next needs a comma.
    var filled = false
    /// An object's members alone, without its braces.
    let bare: Bool
}

/// The `Encoder` one value is encoded through, writing straight into the sink; its frame is
/// `sink.frames[level]`.
private struct AnswerEncoder: Encoder {
    let sink: AnswerSink
    let level: Int
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Appends the JSON of `value`.
    static func write<T: Encodable>(_ value: T, into sink: AnswerSink, bare: Bool = false) {
        let level = sink.frames.count
        sink.frames.append(Frame(bare: bare))
        do {
            try value.encode(to: AnswerEncoder(sink: sink, level: level))
        } catch {
            preconditionFailure("an answer's encoding threw: \(error)")  // nothing here throws
        }
        let frame = sink.frames.removeLast()
        precondition(!bare || frame.kind == .object, "members of something not an object")
        switch frame.kind {
        case .object: if !bare { sink.write(UInt8(ascii: "}")) }
        case .array: sink.write(UInt8(ascii: "]"))
        case .single: break
        case .none: preconditionFailure("\(T.self) encoded nothing")
        }
    }

    /// Marks the frame as holding `kind`: one value is one JSON value.
    private func open(_ kind: Frame.Kind) {
        precondition(sink.frames[level].kind == .none, "one value encoded as two")
        sink.frames[level].kind = kind
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        // A second keyed container of one value goes on with its object.
        if sink.frames[level].kind != .object {
            open(.object)
            if !sink.frames[level].bare { sink.write(UInt8(ascii: "{")) }
        }
        return KeyedEncodingContainer(Members<Key>(sink: sink, level: level))
    }

    func splice(_ bytes: [UInt8]) {
        open(.single)
        sink.append(shared: bytes)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        open(.array)
        sink.write(UInt8(ascii: "["))
        return Elements(sink: sink, level: level)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        open(.single)
        return Single(sink: sink)
    }
}

// MARK: Scalars, written the way `JSON` writes them

extension AnswerSink {
    fileprivate func null() { write("null".utf8) }

    fileprivate func bool(_ value: Bool) { write(value ? "true".utf8 : "false".utf8) }

    fileprivate func string(_ value: String) { write(string: value) }

    fileprivate func integer<T: FixedWidthInteger>(_ value: T) { write(integer: value) }

    /// A floating-point number (no answer has one yet): as Swift spells it, `null` when not finite.
    fileprivate func number<T: BinaryFloatingPoint & LosslessStringConvertible>(_ value: T) {
        guard value.isFinite else { return null() }
        write(JSON.number(String(value)))
    }

    /// Any other value: a string as one (an array's elements come here), anything else through its
    /// own `encode(to:)`, or as it is when encoded before.
    fileprivate func value<T: Encodable>(_ value: T) {
        if T.self == String.self, let text = value as? String { return string(text) }
        AnswerEncoder.write(value, into: self)
    }

    /// `"name":`, after a comma unless it is the first member of the object at `level`.
    fileprivate func key<Key: CodingKey>(_ key: Key, level: Int) {
        separate(level: level)
        let name = key.stringValue
        if Key.self == RunTimeKey.self {
            write(string: name)
            return write(UInt8(ascii: ":"))
        }
        assert(JSONKey.needsNoEscape(name.utf8), "a member name that needs escapes")
        write(key: name)
    }

    /// A comma before every member or element of the object or array at `level` but the first.
    fileprivate func separate(level: Int) {
        if frames[level].filled { write(UInt8(ascii: ",")) }
        frames[level].filled = true
    }
}

/// An object's members.
private struct Members<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let sink: AnswerSink
    let level: Int
    var codingPath: [any CodingKey] { [] }

    init(sink: AnswerSink, level: Int) { (self.sink, self.level) = (sink, level) }

    private func key(_ key: Key) { sink.key(key, level: level) }

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

    // An absent member of a plain optional type is left out.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) { if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) { if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) { if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) { if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) { if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) { if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) { if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) { if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) { if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) { if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) { if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) { if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) { if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) { if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) { if let value { encode(value, forKey: key) } }

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
    let sink: AnswerSink
    let level: Int
    var codingPath: [any CodingKey] { [] }
    private(set) var count = 0

    init(sink: AnswerSink, level: Int) { (self.sink, self.level) = (sink, level) }

    private mutating func separate() {
        sink.separate(level: level)
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
    let sink: AnswerSink
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
