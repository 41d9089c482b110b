#if canImport(Glibc)
import Glibc
#endif

/// The exact route's replies of one loop round, by the bytes of their request line after the id:
/// the same request asked again in the round (by a pipelining client, or by the many clients
/// showing one stop) costs one comparison instead of a lookup and a reply, as Redis answers a
/// round from one cached clock. Everything the route's reply depends on is in its key: the line
/// (the value), the round (the clock: a round's answers are all as of its start) and the route's
/// stamp (the data, `Dispatcher.registerExact`).
///
/// Only results are kept (an error is counted by its code each time). At most `capacity`
/// replies, all of one round and one stamp, each a reference to bytes its route made anyway;
/// the keys' bytes (at most `capacity` × `maxKeyBytes`) live in one array kept between rounds,
/// so a round allocates nothing.
/// Owned by the loop thread, in its `SessionHost`.
struct ExactReplies {
    static let capacity = 8
    /// Longer lines are answered each time: a key this size already holds any stop id.
    static let maxKeyBytes = 256

    private struct Entry {
        let key: Range<Int>
        let reply: [UInt8]
    }

    private var round: Int64 = .min
    private var stamp: UInt64 = 0
    private var keys: [UInt8] = []
    private var entries: [Entry] = []

    /// The reply remembered for `rest` (a line's bytes after its id) in `round` at `stamp`.
    /// A new round or stamp forgets every reply of the old one.
    mutating func reply(for rest: UnsafeRawBufferPointer, round: Int64, stamp: UInt64) -> [UInt8]? {
        guard round == self.round, stamp == self.stamp else {
            (self.round, self.stamp) = (round, stamp)
            keys.removeAll(keepingCapacity: true)
            entries.removeAll(keepingCapacity: true)
            return nil
        }
        return keys.withUnsafeBytes { keys in
            for entry in entries where entry.key.count == rest.count
                && memcmp(keys.baseAddress! + entry.key.lowerBound, rest.baseAddress!, rest.count) == 0 {
                return entry.reply
            }
            return nil
        }
    }

    /// Keeps `reply` for `rest` for the rest of the round given to `reply(for:…)` last, while
    /// there is room.
    mutating func remember(_ reply: [UInt8], for rest: UnsafeRawBufferPointer) {
        guard entries.count < Self.capacity, rest.count <= Self.maxKeyBytes else { return }
        let start = keys.count
        keys.append(contentsOf: rest.assumingMemoryBound(to: UInt8.self))
        entries.append(Entry(key: start..<keys.count, reply: reply))
    }
}
