import StopSheetCore

/// Every stop id of a station directory that is a canonical decimal number (all of CTA's are),
/// as that number, in ascending order, beside its station's position in the directory. Lets the
/// request path find a station from a request's bytes without making a String or hashing one.
/// Immutable; built once per stations load (a snapshot of the same load takes the one it
/// replaces had: `EncodedSnapshot`), read on the loop thread.
struct DecimalStopIndex: Sendable {
    private let numbers: [UInt64]
    private let positions: [Int32]

    /// Positions as `StationDirectory.index(for:)` gives them, so the two lookups cannot
    /// disagree: a station id to its station, and a platform id to its station unless it is also
    /// another station's id (the station wins, as there). A test holds the two to each other.
    /// Read from the stations as they are stored, without a lookup per id.
    init(_ directory: StationDirectory?) {
        let stations = directory?.stations ?? []
        // `isPlatform`: a platform's id, which gives way to a station's of the same number.
        var decimal: [(number: UInt64, isPlatform: Bool, position: Int32)] = []
        for position in stations.indices {
            if let number = Self.decimalValue(stations[position].id.utf8) { decimal.append((number, false, Int32(position))) }
            for platform in stations[position].platforms {
                if let number = Self.decimalValue(platform.stopID.utf8) { decimal.append((number, true, Int32(position))) }
            }
        }
        decimal.sort { $0.number != $1.number ? $0.number < $1.number : !$0.isPlatform && $1.isPlatform }
        var numbers: [UInt64] = []
        var positions: [Int32] = []
        numbers.reserveCapacity(decimal.count)
        positions.reserveCapacity(decimal.count)
        for entry in decimal where numbers.last != entry.number {
            numbers.append(entry.number)
            positions.append(entry.position)
        }
        self.numbers = numbers
        self.positions = positions
    }

    /// The number a stop id's bytes spell when they are a canonical decimal: 1…18 digits, no
    /// leading zero (so that "040380" stays a different id from "40380"). Nil otherwise.
    static func decimalValue<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt64? {
        guard (1...18).contains(bytes.count), bytes.count == 1 || bytes.first != UInt8(ascii: "0") else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value &* 10 &+ UInt64(digit)
        }
        return value
    }

    /// `StationDirectory.index(for:)` for a stop id given as its UTF-8 bytes, answered for
    /// decimal ids only: nil for an unknown id and for any other id.
    func index(of bytes: UnsafeRawBufferPointer) -> Int? {
        guard let number = Self.decimalValue(bytes) else { return nil }
        var low = 0
        var high = numbers.count
        while low < high {
            let middle = (low + high) / 2
            if numbers[middle] < number { low = middle + 1 } else { high = middle }
        }
        guard low < numbers.count, numbers[low] == number else { return nil }
        return Int(positions[low])
    }
}
