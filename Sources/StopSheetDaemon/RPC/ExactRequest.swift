#if canImport(Glibc)
import Glibc
#endif

/// The one request line nearly every client sends, in the exact bytes they all write it:
///
///     {"jsonrpc":"2.0","id":7,"method":"stopSheet","params":{"stopId":"40380"}}
///
/// for one method and one param name fixed at registration (`Dispatcher.registerExact`). It is
/// matched as fixed bytes around two holes, the id and the param's value, with no JSON reading:
/// the one fast path, several times cheaper than the general parser (`make bench` measures both).
/// Any other spelling of the same request (whitespace, member order,
/// escapes) is declined (nil) and parsed once by the general parser.
///
/// The id is an integer literal `-?(0|[1-9][0-9]*)` or a plain string, the value a plain string
/// (printable ASCII without `"` or `\`): so the id's bytes are its own compact encoding, and the
/// value's bytes are its string value. Every accepted line is one the general parser reads as
/// the same request with the same id and params; tests check this on a table and on random
/// mutations. Immutable after registration; matched on the loop thread.
struct ExactRequest: Sendable {
    let method: String
    let paramName: String
    /// `,"method":"<method>","params":{"<param>":"`
    private let middle: [UInt8]

    /// Nesting the general parser must allow for the same answer: the request object and params.
    static let depth = 2

    // Literals, not arrays: a static array costs a lazy-initialisation check and a reference
    // count on every line.
    private static var head: StaticString { #"{"jsonrpc":"2.0","id":"# }
    private static var tail: StaticString { #""}}"# }

    init(method: String, paramName: String) {
        precondition((method + paramName).utf8.allSatisfy(Self.isPlain), "names must be plain strings to be matched as bytes")
        self.method = method
        self.paramName = paramName
        middle = Array(#","method":"\#(method)","params":{"\#(paramName)":""#.utf8)
    }

    /// Where the id token and the value are in `line`, or nil when the line is not this shape.
    func match(_ line: UnsafeRawBufferPointer) -> (id: Range<Int>, value: Range<Int>)? {
        guard let id = id(in: line), let value = value(in: line, after: id) else { return nil }
        return (id, value)
    }

    /// Where the id token is, when `line` starts as this shape does up to its end: what follows
    /// is then the request but for its id, for `value(in:after:)` to check (or for a reply
    /// remembered for the same bytes, `ExactReplies`).
    func id(in line: UnsafeRawBufferPointer) -> Range<Int>? {
        let head = Self.bytes(Self.head)
        guard line.count > head.count + middle.count + Self.tail.utf8CodeUnitCount, Self.equal(line, at: 0, head) else { return nil }
        let idStart = head.count
        var position = idStart
        if line[position] == UInt8(ascii: "\"") {
            position += 1
            while position < line.count, line[position] != UInt8(ascii: "\"") {
                guard Self.isPlain(line[position]) else { return nil }
                position += 1
            }
            guard position < line.count else { return nil }
            position += 1
        } else {
            if line[position] == UInt8(ascii: "-") { position += 1 }
            let digits = position
            while position < line.count, line[position] &- UInt8(ascii: "0") < 10 { position += 1 }
            guard position > digits, position == digits + 1 || line[digits] != UInt8(ascii: "0") else { return nil }
        }
        return idStart..<position
    }

    /// Where the value is, when the rest of `line` after the id token `id` is this shape's.
    func value(in line: UnsafeRawBufferPointer, after id: Range<Int>) -> Range<Int>? {
        let tail = Self.bytes(Self.tail)
        let valueStart = id.upperBound + middle.count
        let valueEnd = line.count - tail.count
        guard valueStart <= valueEnd, middle.withUnsafeBytes({ Self.equal(line, at: id.upperBound, $0) }), Self.equal(line, at: valueEnd, tail)
        else { return nil }
        for index in valueStart..<valueEnd where !Self.isPlain(line[index]) { return nil }
        return valueStart..<valueEnd
    }

    /// Whether `line` holds `bytes` at `offset`; the caller has checked that they fit.
    private static func equal(_ line: UnsafeRawBufferPointer, at offset: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
        memcmp(line.baseAddress! + offset, bytes.baseAddress!, bytes.count) == 0
    }

    private static func bytes(_ literal: StaticString) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
    }

    private static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }
}
