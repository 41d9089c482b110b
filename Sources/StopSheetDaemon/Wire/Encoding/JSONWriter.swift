import StopSheetCore
import StopSheetProtocol

/// How the daemon puts the JSON-RPC envelopes together around parts encoded before: an answer's
/// or a notification's `jsonrpc`, `id`, `result` or `error`, and `params` (a snapshot's sheet, a
/// client's id token). It writes an envelope's members one by one, with their braces, commas and
/// colons, and takes what goes inside as whole values, so no caller cuts encoded bytes at a
/// marker or drops a last byte to add a member. The answers' own punctuation is the encoder's
/// (`AnswerEncoding`), and a train sheet's `data` member is added after its other members by
/// `PreEncoded(_:data:)`. Outside these stand only the lines' framing: the newline after each
/// answer, and a batch's `[`, commas and `]` between whole answers (`LineAnswer`), which stream out
/// one by one as they are answered.
///
/// A value given as bytes (`encoded:`, `shared:`) must be one complete JSON value.
///
/// It owns the sink while it writes: `writeObject` moves the sink into the writer and back, so
/// the sink is appended to in place, never copied (a copy would make its buffer shared, and the
/// next append copy it whole), and every write reaches the sink through the writer itself, never
/// through a pointer that the optimizer cannot see.
struct JSONWriter<Sink: JSONSink>: ~Copyable {
    fileprivate var sink: Sink
    /// The object has a member, so the next one needs a comma.
    private var filled = false

    fileprivate init(_ sink: consuming Sink) { self.sink = sink }

    fileprivate consuming func finish() -> Sink { sink }

    // MARK: Object members

    mutating func member(_ key: JSONKey, _ value: JSON) {
        self.key(key)
        sink.write(value)
    }

    mutating func member(_ key: JSONKey, string: String) {
        self.key(key)
        sink.write(string: string)
    }

    /// A value encoded before, copied.
    mutating func member(_ key: JSONKey, encoded value: [UInt8]) {
        self.key(key)
        sink.write(value)
    }

    /// A value spelled in the source, such as `#""2.0""#`: one complete JSON value.
    @inline(__always)
    mutating func member(_ key: JSONKey, literal value: StaticString) {
        self.key(key)
        append(value)
    }

    @inline(__always)
    mutating func member(_ key: JSONKey, encoded value: UnsafeRawBufferPointer) {
        self.key(key)
        sink.write(value)
    }

    /// A value encoded before and kept by others (a snapshot's sheet): a sink that can hold it by
    /// reference does (`OutputBuffer`).
    @inline(__always)
    mutating func member(_ key: JSONKey, shared value: [UInt8]) {
        self.key(key)
        sink.append(shared: value)
    }

    // MARK: Punctuation
    // Inlined, with the members an envelope writes: each is a few instructions around a copy, and
    // inlined, a literal key's kind and the first member's missing comma are known where it is written.

    @inline(__always)
    private mutating func key(_ key: JSONKey) {
        separate()
        sink.write(key: UnsafeRawBufferPointer(start: key.name.utf8Start, count: key.name.utf8CodeUnitCount))
    }

    @inline(__always)
    private mutating func append(_ literal: StaticString) {
        sink.write(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    @inline(__always)
    private mutating func separate() {
        if filled { sink.write(UInt8(ascii: ",")) }
        filled = true
    }
}

/// Where a `JSONWriter` writes: a byte array, or a connection's output, which holds big shared
/// pieces by reference and appends small ones without the array's per-call bookkeeping.
protocol JSONSink {
    /// Bytes written so far, shared pieces included.
    var count: Int { get }
    mutating func write(_ byte: UInt8)
    mutating func write(_ bytes: UnsafeRawBufferPointer)
    mutating func write(_ bytes: [UInt8])
    /// A JSON value, encoded.
    mutating func write(_ value: JSON)
    /// A string as JSON, escaped.
    mutating func write(string: String)
    /// A complete value encoded before and kept by others.
    mutating func append(shared bytes: [UInt8])
    /// `"name":` for a name that needs no escape.
    mutating func write(key name: UnsafeRawBufferPointer)
}

extension JSONSink {
    mutating func write(key name: UnsafeRawBufferPointer) {
        write(UInt8(ascii: "\""))
        write(name)
        write(UInt8(ascii: "\""))
        write(UInt8(ascii: ":"))
    }

    /// Writes one object, `{`…`}`, whose members `body` gives.
    @inline(__always)
    mutating func writeObject(_ body: (inout JSONWriter<Self>) -> Void) {
        write(UInt8(ascii: "{"))
        var writer = JSONWriter(consume self)
        body(&writer)
        self = writer.finish()
        write(UInt8(ascii: "}"))
    }
}

extension Array: JSONSink where Element == UInt8 {
    mutating func write(_ byte: UInt8) { append(byte) }

    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        // As typed bytes: a raw buffer would be appended byte by byte, a typed one with memcpy.
        append(contentsOf: UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count))
    }

    mutating func write(_ bytes: [UInt8]) { append(contentsOf: bytes) }

    mutating func write(_ value: JSON) { value.encode(into: &self) }

    mutating func write(string: String) { JSON.encodeString(string, into: &self) }


    mutating func append(shared bytes: [UInt8]) { append(contentsOf: bytes) }

}

extension OutputBuffer: JSONSink {
    mutating func write(_ value: JSON) { write { value.encode(into: &$0) } }

    mutating func write(string: String) { write { JSON.encodeString(string, into: &$0) } }

}

/// A member name: a literal of the source (plain ASCII, no escape needed: checked in debug
/// builds), written without any allocation or reference count.
struct JSONKey: Sendable, ExpressibleByStringLiteral {
    fileprivate let name: StaticString

    init(stringLiteral name: StaticString) {
        assert(name.hasPointerRepresentation && Self.needsNoEscape(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)),
               "a key literal that needs escapes")
        self.name = name
    }

    /// Whether a member name is written between its quotes as it is: printable ASCII, neither `"`
    /// nor a backslash. The keys of the source and the protocol's member names are (each checked in
    /// debug builds), so neither encoder escapes them.
    static func needsNoEscape(_ name: some Sequence<UInt8>) -> Bool {
        name.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }
}
