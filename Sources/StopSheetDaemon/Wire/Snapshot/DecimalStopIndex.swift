import StopSheetCore

/// Every stop id of a station directory that is a canonical decimal number (all of CTA's are),
/// as that number, in ascending order, beside its station's position in the directory. Lets the
/// request path find a station from a request's bytes without making a String or hashing one.
/// Immutable; built once per snapshot, read on the loop thread.
struct DecimalStopIndex: Sendable {
    private let numbers: [UInt64]
    private let positions: [Int32]

    /// Positions through `StationDirectory.index(for:)` itself, so the two lookups cannot
    /// disagree (a station id that is also another station's platform id resolves the same way).
    init(_ directory: StationDirectory?) {
        var decimal: [(number: UInt64, position: Int32)] = []
        for station in directory?.stations ?? [] {
            for id in [station.id] + station.platforms.map(\.stopID) {
                var id = id
                guard let number = id.withUTF8({ Self.decimalValue(UnsafeRawBufferPointer($0)) }),
                      let position = directory?.index(for: id)
                else { continue }
                decimal.append((number, Int32(position)))
            }
        }
        decimal.sort { $0.number < $1.number }
        numbers = decimal.map(\.number)
        positions = decimal.map(\.position)
    }

    /// The number a stop id's bytes spell when they are a canonical decimal: 1…18 digits, no
    /// leading zero (so that "040380" stays a different id from "40380"). Nil otherwise.
    static func decimalValue(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        guard (1...18).contains(bytes.count), bytes.count == 1 || bytes[0] != UInt8(ascii: "0") else { return nil }
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
