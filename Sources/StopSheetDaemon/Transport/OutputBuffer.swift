#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// A connection's answers on their way out: the bytes written into it, with big pieces encoded
/// before (a snapshot's sheets, a notification line) held by reference between them instead of
/// copied. The socket takes pieces and bytes together in one `sendmsg` (scatter-gather), so a
/// 7 KB sheet is copied once per answer, by the kernel into the socket, as a server answering
/// from a prepared buffer does. Knows bytes only; `JSONWriter` writes into it as a `JSONSink`.
/// Owned by the loop thread with its connection.
///
/// What it holds counts in full in the server's memory budget (`unsent`), though a shared piece
/// costs this buffer only a reference: the bound stays what the budget says, whatever is shared.
struct OutputBuffer {
    /// The bytes written; the shared pieces sit between them (`Splice.offset`).
    private let bytes = OutputBytes()
    /// For bytes produced into an array first (`write(encoding:)`), kept between calls.
    private var scratch: [UInt8] = []
    private var splices: [Splice] = []
    private var splicedBytes = 0
    /// Where sending has got to: bytes of `tail` sent, splices sent whole, bytes of the next one sent.
    private var tailSent = 0
    private var splicesSent = 0
    private var pieceSent = 0
    /// All bytes sent, pieces included.
    private(set) var sent = 0

    private struct Splice {
        /// The piece goes before `tail[offset]`.
        let offset: Int
        let piece: [UInt8]
    }

    /// Smaller pieces are copied: a reference and an iovec cost more than copying a few hundred bytes.
    static let shareFrom = 1024
    /// Segments per `sendmsg`; Linux takes 1024, and a round's answers need far fewer.
    private static let maxSegments = 64

    var count: Int { bytes.count + splicedBytes }
    var unsent: Int { count - sent }
    var capacity: Int { bytes.capacity }

    mutating func append(shared piece: [UInt8]) {
        guard piece.count >= Self.shareFrom else {
            write(piece)
            return
        }
        splices.append(Splice(offset: bytes.count, piece: piece))
        splicedBytes += piece.count
    }

    @inline(__always) mutating func write(_ byte: UInt8) { bytes.append(byte) }

    @inline(__always) mutating func write(_ bytes: UnsafeRawBufferPointer) { self.bytes.append(bytes) }

    @inline(__always) mutating func write(_ bytes: [UInt8]) { bytes.withUnsafeBytes { self.bytes.append($0) } }

    /// `"name":`, with one bounds check: every member of an answer starts with one.
    @inline(__always) mutating func write(key name: UnsafeRawBufferPointer) { bytes.appendQuoted(name, then: UInt8(ascii: ":")) }

    /// Bytes that `produce` appends to an array it is given, copied in.
    mutating func write(encoding produce: (inout [UInt8]) -> Void) {
        scratch.removeAll(keepingCapacity: true)
        produce(&scratch)
        write(scratch)
    }

    enum SendOutcome {
        /// The socket took some or all (`unsent` says which), or nothing (it is full).
        case sent(progressed: Bool)
        case failed(Int32)
    }

    /// Sends until everything is sent or the socket would block.
    mutating func send(to fd: Int32) -> SendOutcome {
        var progressed = false
        let flags = Int32(MSG_NOSIGNAL)
        while unsent > 0 {
            let count: Int = withSegments { segments in
                segments.withUnsafeMutableBufferPointer { vectors in
                    var message = msghdr()
                    message.msg_iov = vectors.baseAddress
                    message.msg_iovlen = vectors.count
                    return sendmsg(fd, &message, flags)
                }
            }
            if count > 0 {
                advance(by: count)
                progressed = true
                continue
            }
            // Nothing taken of unsent bytes: the peer is gone (errno is not set).
            if count == 0 { return .failed(EPIPE) }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { break }
            return .failed(code)
        }
        // Keep the allocation for the next answers: a pipelining client fills it again at once,
        // and growing it anew every round would copy each answer several times over. What a
        // burst left behind goes on the loop's tick once the connection is quiet (`releaseIdle`).
        if unsent == 0 { reset(keepingCapacity: bytes.capacity <= Self.keptCapacity) } else { dropSent() }
        return .sent(progressed: progressed)
    }

    /// Capacity kept between rounds while the connection is busy.
    static let keptCapacity = 1 << 20
    /// Capacity kept once it is quiet for a tick, so a thousand idle connections do not each keep a burst's.
    static let idleCapacity = 64 << 10

    /// Nothing unsent: gives back a big allocation a quiet connection no longer fills.
    mutating func releaseIdle() {
        guard unsent == 0, bytes.capacity > Self.idleCapacity else { return }
        reset(keepingCapacity: false)
    }

    /// Forgets everything; keeps the written bytes' allocation when asked, for the next answers.
    mutating func reset(keepingCapacity: Bool) {
        bytes.removeAll(keepingCapacity: keepingCapacity)
        if !keepingCapacity { scratch = [] }
        splices.removeAll(keepingCapacity: keepingCapacity)
        (splicedBytes, tailSent, splicesSent, pieceSent, sent) = (0, 0, 0, 0, 0)
    }

    // MARK: - Segments

    /// The unsent segments in order, at most `maxSegments`, as iovecs valid inside `body`. Each
    /// piece's bytes are pinned by a nested `withUnsafeBytes`, so no pointer outlives its closure.
    private func withSegments<Result>(_ body: (inout [iovec]) -> Result) -> Result {
        bytes.withUnsafeBytes { tailBytes in
            var segments: [iovec] = []
            segments.reserveCapacity(min(Self.maxSegments, 2 * (splices.count - splicesSent) + 1))
            return pin(from: splicesSent, tailFrom: tailSent, pieceFrom: pieceSent, tailBytes, &segments, body)
        }
    }

    private func pin<Result>(from splice: Int, tailFrom: Int, pieceFrom: Int, _ tailBytes: UnsafeRawBufferPointer,
                             _ segments: inout [iovec], _ body: (inout [iovec]) -> Result) -> Result {
        let end = splice < splices.count ? splices[splice].offset : tailBytes.count
        if tailFrom < end, segments.count < Self.maxSegments {
            segments.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: tailBytes.baseAddress! + tailFrom), iov_len: end - tailFrom))
        }
        guard splice < splices.count, segments.count < Self.maxSegments else { return body(&segments) }
        return splices[splice].piece.withUnsafeBytes { piece in
            segments.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: piece.baseAddress! + pieceFrom), iov_len: piece.count - pieceFrom))
            return pin(from: splice + 1, tailFrom: end, pieceFrom: 0, tailBytes, &segments, body)
        }
    }

    /// Moves the send position `count` bytes on, over tail bytes and pieces in their order.
    private mutating func advance(by count: Int) {
        sent += count
        var left = count
        while left > 0 {
            let end = splicesSent < splices.count ? splices[splicesSent].offset : bytes.count
            if tailSent < end {
                let step = min(left, end - tailSent)
                tailSent += step
                left -= step
                continue
            }
            // As the tail's bytes above: a piece sent to its last byte is passed at once, so
            // `dropSent` lets it go and no empty segment is sent for it.
            let step = min(left, splices[splicesSent].piece.count - pieceSent)
            pieceSent += step
            left -= step
            if pieceSent == splices[splicesSent].piece.count { (splicesSent, pieceSent) = (splicesSent + 1, 0) }
        }
    }

    /// Gives back what was sent once it is most of the buffer, so a slow reader's buffer does
    /// not keep every answer it has already taken.
    private mutating func dropSent() {
        guard splicesSent > 0 || tailSent > 0 && tailSent >= bytes.count / 2 else { return }
        let dropped = tailSent
        bytes.removeFirst(dropped)
        let gone = splices[..<splicesSent].reduce(0) { $0 + $1.piece.count }
        splices = splices[splicesSent...].map { Splice(offset: $0.offset - dropped, piece: $0.piece) }
        splicedBytes -= gone
        sent -= dropped + gone
        (tailSent, splicesSent) = (0, 0)
    }
}

/// The written bytes of an `OutputBuffer`: a growable allocation whose appends cost a bounds check
/// and a copy. An answer is a dozen small appends (braces, keys, the id) around a shared sheet, and
/// an array's per-append bookkeeping (uniqueness, capacity, generic copy) cost more than the copying.
/// A class so the allocation is freed with it; owned by the one `OutputBuffer` that made it.
final class OutputBytes {
    private var base: UnsafeMutableRawPointer?
    private(set) var count = 0
    private(set) var capacity = 0

    deinit { free(base) }

    @inline(__always)
    func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base.unsafelyUnwrapped.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    @inline(__always)
    func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        memcpy(base.unsafelyUnwrapped + count, source, bytes.count)
        count += bytes.count
    }

    /// `"`, `bytes`, `"` and `last`.
    @inline(__always)
    func appendQuoted(_ bytes: UnsafeRawBufferPointer, then last: UInt8) {
        if count + bytes.count + 3 > capacity { grow(to: count + bytes.count + 3) }
        let target = base.unsafelyUnwrapped + count
        target.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        if let source = bytes.baseAddress { (target + 1).copyMemory(from: source, byteCount: bytes.count) }
        (target + 1 + bytes.count).storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        (target + 2 + bytes.count).storeBytes(of: last, as: UInt8.self)
        count += bytes.count + 3
    }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        body(UnsafeRawBufferPointer(start: base, count: count))
    }

    func removeAll(keepingCapacity: Bool) {
        count = 0
        guard !keepingCapacity else { return }
        free(base)
        (base, capacity) = (nil, 0)
    }

    func removeFirst(_ dropped: Int) {
        guard dropped > 0, let base else { return }
        memmove(base, base + dropped, count - dropped)
        count -= dropped
    }

    private func grow(to needed: Int) {
        let capacity = max(needed, self.capacity * 2, 4096)
        // Out of memory is the one failure a byte buffer cannot answer; it is fatal as for an array.
        guard let grown = realloc(base, capacity) else { fatalError("out of memory for \(capacity) output bytes") }
        (base, self.capacity) = (grown, capacity)
    }
}
