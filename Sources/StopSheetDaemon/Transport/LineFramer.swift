#if canImport(Glibc)
import Glibc
#endif

/// Splits a connection's byte stream into lines: the framing layer, and nothing else.
///
/// A line ends at `\n`; a `\r` right before it is dropped too, so `\r\n` clients work. The limit
/// applies to a line's content without its terminator.
///
/// Overflow: a line longer than `maxLineBytes` yields one `.tooLarge`, and its bytes are dropped
/// up to and including the next `\n`; the line after it is framed normally. Framing is never lost
/// on a byte stream with newlines, so there is no reason to close the connection (protocol.md,
/// "Framing": a bad line never closes it), and the buffer never holds more than one line plus one read's worth:
/// an oversized line is detected and dropped while it is still arriving, not once it is complete.
///
/// `.line` ranges index `buffer` and are valid until the next `append`.
public struct LineFramer {
    public enum Event: Equatable, Sendable {
        case line(Range<Int>)
        case tooLarge
    }

    public let maxLineBytes: Int
    public private(set) var buffer: [UInt8] = []
    /// First byte not yet handed out.
    private var start = 0
    /// Bytes after `start` already searched for a newline, so pipelined input is scanned once.
    private var scanned = 0
    /// Inside an oversized line, dropping input until its newline.
    private var discarding = false

    public init(maxLineBytes: Int = 1 << 20) {
        self.maxLineBytes = max(1, maxLineBytes)
    }

    /// Whether any unframed input is held (a partial line, or complete lines not yet taken).
    public var hasBufferedBytes: Bool { start < buffer.count }

    /// How many unframed bytes are held.
    public var bufferedByteCount: Int { buffer.count - start }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        var bytes = bytes
        if discarding {
            guard let newline = Self.firstNewline(in: bytes) else { return }
            discarding = false
            bytes = UnsafeRawBufferPointer(rebasing: bytes[(newline + 1)...])
        }
        buffer.append(contentsOf: bytes)
    }

    public mutating func append(_ bytes: some Collection<UInt8>) {
        Array(bytes).withUnsafeBytes { append($0) }
    }

    /// The next complete line or overflow, or nil when more input is needed.
    public mutating func next() -> Event? {
        let searchFrom = start + scanned
        let newline = buffer.withUnsafeBytes { all in
            Self.firstNewline(in: UnsafeRawBufferPointer(rebasing: all[searchFrom...])).map { $0 + searchFrom }
        }
        guard let newline else {
            scanned = buffer.count - start
            // +1: the line may still turn out to end in `\r\n`, and the `\r` is not content.
            guard buffer.count - start > maxLineBytes + 1 else { return nil }
            start = buffer.count
            scanned = 0
            discarding = true
            compact()
            return .tooLarge
        }
        let line = start..<newline
        start = newline + 1
        scanned = 0
        return event(for: line)
    }

    /// At end of input: the unterminated last line, if any. Clients such as `printf … | socat`
    /// often omit the final newline, and the bytes are a complete request all the same.
    public mutating func finish() -> Event? {
        guard !discarding, start < buffer.count else { return nil }
        let line = start..<buffer.count
        start = buffer.count
        scanned = 0
        return event(for: line)
    }

    private func event(for line: Range<Int>) -> Event {
        var line = line
        if let last = line.last, buffer[last] == UInt8(ascii: "\r") { line = line.lowerBound..<last }
        return line.count > maxLineBytes ? .tooLarge : .line(line)
    }

    /// Drops consumed bytes. Only between lines handed out, so ranges stay valid until `append`.
    private mutating func compact() {
        if start == buffer.count {
            // Keep the allocation for the next read unless one huge line inflated it.
            buffer.removeAll(keepingCapacity: buffer.capacity <= 16 << 10)
            start = 0
        } else if start > 0, start >= buffer.count / 2 {
            // A big read leaves a partial line in a big allocation: move it to one its size, so
            // a thousand connections each holding a few bytes do not each hold a read's worth.
            if buffer.capacity > 16 << 10 { buffer = Array(buffer[start...]) } else { buffer.removeSubrange(0..<start) }
            start = 0
        }
    }

    private static func firstNewline(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, !bytes.isEmpty,
            let found = memchr(base, 0x0A, bytes.count)
        else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }
}
