import StopSheetCore
import StopSheetProtocol

/// Members of an object encoded without its braces, to be written among other members
/// (`JSONWriter.members`): a snapshot's sheet, whose `data` each answer gives (`hole`).
///
/// Kept in pieces: the bytes written for these members alone, and the big values encoded before
/// and given as `shared:` (a snapshot's alert members, the same array for every station with the
/// same alerts), held by reference rather than copied into each sheet. A network's stations then
/// share their alert bytes instead of each holding a copy (tens of megabytes at a hundred times
/// CTA's size), and an output that holds shared pieces (`OutputBuffer`) sends them as they are.
struct EncodedMembers: Sendable, Equatable {
    /// In order; each piece is whole JSON text only together with its neighbours (and the value
    /// in the hole, when there is one).
    let pieces: [[UInt8]]
    /// The place of a member whose value each use gives (`Slot`, left by `TemplateFill.leave`):
    /// its name is among the pieces, where `CodingKeys` put it, and its value goes before
    /// `pieces[hole.before]`, or after the last.
    let hole: Hole?

    /// A slot's place, before `pieces[before]` (`Pieces` records one per `Slot` it is given).
    struct Hole: Sendable, Equatable {
        let before: Int
        let slot: Int
        /// The answer type its value encodes.
        let type: ObjectIdentifier
    }

    /// The members of `value`, an answer object (`AnswerEncoding`), which has no `Slot`;
    /// `capacity`: about how many bytes the members' own pieces take, so they are allocated once.
    init(capacity: Int = 0, encoding value: some Encodable) {
        var pieces = Pieces(capacity: capacity)
        AnswerEncoding.writeMembers(value, into: &pieces)
        self.init(pieces)
    }

    /// What a sink holds: its one hole, if any, left by a `TemplateFill`.
    init(_ sink: Pieces) {
        let (pieces, holes) = sink.finish()
        precondition(holes.count <= 1, "members with \(holes.count) holes")
        self.pieces = pieces
        hole = holes.first
    }

    /// The object of these members alone: they have no hole.
    var object: [UInt8] {
        precondition(hole == nil, "members with a hole are written with its value")
        return .object { $0.members(self, filling: nil) }
    }

    /// The object of these members with `value` in their hole, which takes an `Encodes`.
    func object<Encodes>(filling value: PreEncoded<Encodes>) -> [UInt8] {
        precondition(hole?.type == ObjectIdentifier(Encodes.self), "a hole filled with a value of another type, or no hole")
        return .object { $0.members(self, filling: value.bytes) }
    }

    /// What `EncodedMembers` are written into: bytes, shared values kept as pieces of their own,
    /// and the places of `Slot`s (`EncodedTemplate`).
    struct Pieces: JSONSink {
        var tail: [UInt8]
        private var done: [[UInt8]] = []
        private var doneBytes = 0
        private var holes: [Hole] = []

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
            endPiece()
            done.append(bytes)
            doneBytes += bytes.count
        }

        /// The place of slot `slot`'s value, which encodes a `type`.
        mutating func leaveHole(slot: Int, type: ObjectIdentifier) {
            endPiece()
            holes.append(Hole(before: done.count, slot: slot, type: type))
        }

        private mutating func endPiece() {
            guard !tail.isEmpty else { return }
            done.append(tail)
            doneBytes += tail.count
            // A new buffer as big as the last: what follows a shared piece is most often as long.
            tail.removeAll(keepingCapacity: true)
        }

        consuming func finish() -> (pieces: [[UInt8]], holes: [Hole]) {
            endPiece()
            return (done, holes)
        }

        /// Everything written, in one array: it has no hole.
        consuming func joined() -> [UInt8] {
            precondition(holes.isEmpty, "a value with a slot encoded whole")
            guard !done.isEmpty else { return tail }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(count)
            for piece in done { bytes.append(contentsOf: piece) }
            bytes.append(contentsOf: tail)
            return bytes
        }
    }
}
