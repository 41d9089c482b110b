import StopSheetCore

/// Members of an object encoded without its braces, to be written among other members
/// (`JSONWriter.members`): a snapshot's sheet without `data`, which each answer adds.
///
/// Kept in pieces: the bytes written for these members alone, and the big values encoded before
/// and given as `shared:` (a snapshot's alert members, the same array for every station with the
/// same alerts), held by reference rather than copied into each sheet. A network's stations then
/// share their alert bytes instead of each holding a copy (tens of megabytes at a hundred times
/// CTA's size), and an output that holds shared pieces (`OutputBuffer`) sends them as they are.
struct EncodedMembers: Sendable, Equatable {
    /// In order; each piece is whole JSON text only together with its neighbours.
    let pieces: [[UInt8]]

    /// The members of `value`, an answer object (`AnswerEncoding`); `capacity`: about how many
    /// bytes the members' own pieces take, so they are allocated once.
    init(capacity: Int = 0, encoding value: some Encodable) {
        var pieces = Pieces(capacity: capacity)
        AnswerEncoding.writeMembers(value, into: &pieces)
        self.pieces = pieces.finish()
    }

    /// The object of these members alone.
    var object: [UInt8] { .object { $0.members(self) } }

    /// What `EncodedMembers` are written into: bytes, and shared values kept as pieces of their own.
    struct Pieces: JSONSink {
        var tail: [UInt8]
        private var done: [[UInt8]] = []
        private var doneBytes = 0

        init(capacity: Int) {
            tail = []
            tail.reserveCapacity(capacity)
        }

        var count: Int { doneBytes + tail.count }

        // Everything but a big shared value goes to the bytes at the end, as an array takes it.
        mutating func write(_ byte: UInt8) { tail.write(byte) }
        mutating func write(_ bytes: UnsafeRawBufferPointer) { tail.write(bytes) }
        mutating func write(_ bytes: [UInt8]) { tail.write(bytes) }
        mutating func write(_ value: JSON) { tail.write(value) }
        mutating func write(string: String) { tail.write(string: string) }
        mutating func write(stringContent: String) { tail.write(stringContent: stringContent) }

        /// A value big enough to be worth a reference becomes a piece; a small one is copied.
        mutating func append(shared bytes: [UInt8]) {
            guard bytes.count >= OutputBuffer.shareFrom else {
                tail.write(bytes)
                return
            }
            if !tail.isEmpty { done.append(tail) }
            done.append(bytes)
            doneBytes += tail.count + bytes.count
            tail = []
        }

        fileprivate consuming func finish() -> [[UInt8]] {
            if !tail.isEmpty { done.append(tail) }
            return done
        }

        /// Everything written, in one array.
        consuming func joined() -> [UInt8] {
            guard !done.isEmpty else { return tail }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(count)
            for piece in done { bytes.append(contentsOf: piece) }
            bytes.append(contentsOf: tail)
            return bytes
        }
    }
}
