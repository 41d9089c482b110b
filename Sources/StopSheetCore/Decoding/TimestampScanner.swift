/// A cursor over the ASCII of a timestamp: fixed-width digit groups and literal separators.
struct TimestampScanner {
    private let bytes: [UInt8]
    private var position = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var isAtEnd: Bool { position == bytes.count }

    /// Exactly `count` decimal digits as a number, or nil (and nothing consumed).
    mutating func digits(_ count: Int) -> Int? {
        guard position + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[position..<position + count] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        position += count
        return value
    }

    /// One or more decimal digits; their count, or 0 (and nothing consumed).
    mutating func skipDigits() -> Int {
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        return position - start
    }

    /// Consumes `character` if it is next.
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(character.value) else { return false }
        position += 1
        return true
    }

    /// Consumes and returns the next byte if it is one of `characters`.
    mutating func skip(anyOf characters: String) -> Unicode.Scalar? {
        guard position < bytes.count, let scalar = characters.unicodeScalars.first(where: { $0.value == bytes[position] })
        else { return nil }
        position += 1
        return scalar
    }

    /// `HH:MM` with optional `:SS`, hour 0–23 and the rest checked by `WallClock.isValid` later.
    mutating func clock(into wall: inout WallClock) -> Bool {
        guard let hour = digits(2), skip(":"), let minute = digits(2) else { return false }
        wall.hour = hour
        wall.minute = minute
        if skip(":") {
            guard let second = digits(2) else { return false }
            wall.second = second
        }
        return true
    }
}
