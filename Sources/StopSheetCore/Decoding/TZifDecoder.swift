/// The system's time-zone database, one zone's file (`/usr/share/zoneinfo/America/Chicago`) in
/// the TZif format of RFC 8536: its transitions, and the footer's rule for the years after them.
/// Version 1 files have 32-bit times only; later ones repeat the data with 64-bit times, which
/// are the ones read. Leap seconds and the standard/wall indicators do not change an offset.
public enum TZifDecoder {
    public static func decode(_ bytes: [UInt8], identifier: String) throws(DecodingFailure) -> TimeZoneRules {
        var reader = Reader(bytes: bytes)
        var header = try reader.header()
        if header.version >= 2 {
            try reader.skip(header.dataBytes(timeSize: 4))
            header = try reader.header()
        }
        let timeSize = header.version >= 2 ? 8 : 4
        var transitions: [Int64] = []
        for _ in 0..<header.transitions { transitions.append(try reader.signed(timeSize)) }
        var typeIndices: [Int] = []
        for _ in 0..<header.transitions { typeIndices.append(Int(try reader.byte())) }
        var typeOffsets: [Int] = []
        for _ in 0..<header.types {
            typeOffsets.append(Int(try reader.signed(4)))
            try reader.skip(2)  // isdst, designation index
        }
        guard !typeOffsets.isEmpty, typeIndices.allSatisfy({ $0 < typeOffsets.count }),
              zip(transitions, transitions.dropFirst()).allSatisfy({ $0 < $1 })
        else { throw .malformed(path: "TZif", reason: "inconsistent transitions or local time types") }
        try reader.skip(header.characters + header.leapSeconds * (timeSize + 4) + header.standardIndicators + header.utIndicators)
        var laterYears: RecurringZoneRule?
        if header.version >= 2 {
            let footer = reader.rest
            guard footer.first == 0x0A, footer.last == 0x0A, footer.count >= 2 else { throw .malformed(path: "TZif footer", reason: "not a newline-enclosed TZ string") }
            let text = footer.dropFirst().dropLast()
            if !text.isEmpty {
                var parser = RecurringZoneRuleParser(Array(text))
                guard let rule = parser.parse() else {
                    throw .malformed(path: "TZif footer", reason: "unreadable TZ string '\(String(decoding: text, as: UTF8.self))'")
                }
                laterYears = rule
            }
        }
        return TimeZoneRules(identifier: identifier, transitions: transitions, offsets: typeIndices.map { typeOffsets[$0] },
                             initialOffset: typeOffsets[0], laterYears: laterYears)
    }

    private struct Header {
        var version: Int
        var utIndicators, standardIndicators, leapSeconds, transitions, types, characters: Int

        func dataBytes(timeSize: Int) -> Int {
            transitions * (timeSize + 1) + types * 6 + characters + leapSeconds * (timeSize + 4) + standardIndicators + utIndicators
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        var rest: ArraySlice<UInt8> { bytes[position...] }

        mutating func header() throws(DecodingFailure) -> Header {
            guard bytes.count >= position + 44, Array(bytes[position..<position + 4]) == Array("TZif".utf8) else {
                throw .unrecognisedFormat("not a TZif time-zone file")
            }
            let versionByte = bytes[position + 4]
            position += 20
            var counts: [Int] = []
            for _ in 0..<6 {
                let count = try signed(4)
                guard count >= 0, count < 1 << 20 else { throw .malformed(path: "TZif header", reason: "count \(count) out of range") }
                counts.append(Int(count))
            }
            return Header(version: versionByte == 0 ? 1 : Int(versionByte) - 0x30, utIndicators: counts[0], standardIndicators: counts[1],
                          leapSeconds: counts[2], transitions: counts[3], types: counts[4], characters: counts[5])
        }

        mutating func byte() throws(DecodingFailure) -> UInt8 {
            guard position < bytes.count else { throw .malformed(path: "TZif", reason: "file ends early") }
            defer { position += 1 }
            return bytes[position]
        }

        /// A big-endian two's-complement integer of `size` bytes.
        mutating func signed(_ size: Int) throws(DecodingFailure) -> Int64 {
            var value: UInt64 = 0
            for _ in 0..<size { value = value << 8 | UInt64(try byte()) }
            let shift = UInt64(64 - size * 8)
            return Int64(bitPattern: value << shift) >> shift
        }

        mutating func skip(_ count: Int) throws(DecodingFailure) {
            guard count <= bytes.count - position else { throw .malformed(path: "TZif", reason: "file ends early") }
            position += count
        }
    }
}

/// `std offset [dst [offset] [,start[/time],end[/time]]]`, as POSIX and RFC 8536 §3.3 write it.
struct RecurringZoneRuleParser {
    private let text: [UInt8]
    private var position = 0

    init(_ text: [UInt8]) { self.text = text }

    mutating func parse() -> RecurringZoneRule? {
        guard name(), let standard = offset() else { return nil }
        var rule = RecurringZoneRule(standardOffset: -standard)
        if position == text.count { return rule }
        guard name() else { return nil }
        var daylightOffset = -standard + 3600
        if position < text.count, text[position] != UInt8(ascii: ",") {
            guard let given = offset() else { return nil }
            daylightOffset = -given
        }
        guard skip(","), let start = change(), skip(","), let end = change(), position == text.count else { return nil }
        rule.daylight = .init(offset: daylightOffset, start: start, end: end)
        return rule
    }

    /// `CST`, or `<-03>` for a zone with a number for a name.
    private mutating func name() -> Bool {
        let start = position
        if skip("<") {
            while position < text.count, text[position] != UInt8(ascii: ">") { position += 1 }
            return skip(">") && position - start >= 5
        }
        while position < text.count, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(text[position] & 0xDF) { position += 1 }
        return position - start >= 3
    }

    /// `[+-]hh[:mm[:ss]]` in seconds, as written (west positive for an offset).
    private mutating func offset() -> Int? {
        let sign = skip("-") ? -1 : (skip("+") ? 1 : 1)
        guard let hours = number(), hours <= 167 else { return nil }
        var seconds = hours * 3600
        if skip(":") {
            guard let minutes = number(), minutes < 60 else { return nil }
            seconds += minutes * 60
            if skip(":") {
                guard let rest = number(), rest < 60 else { return nil }
                seconds += rest
            }
        }
        return sign * seconds
    }

    private mutating func change() -> RecurringZoneRule.Change? {
        let day: RecurringZoneRule.Day
        if skip("M") {
            guard let month = number(), (1...12).contains(month), skip("."), let week = number(), (1...5).contains(week), skip("."),
                  let weekday = number(), (0...6).contains(weekday)
            else { return nil }
            day = .monthWeekDay(month: month, week: week, weekday: weekday)
        } else if skip("J") {
            guard let n = number(), (1...365).contains(n) else { return nil }
            day = .julian(n)
        } else {
            guard let n = number(), (0...365).contains(n) else { return nil }
            day = .zeroBased(n)
        }
        var time = 7200
        if skip("/") {
            guard let given = offset() else { return nil }
            time = given
        }
        return .init(day: day, time: time)
    }

    private mutating func number() -> Int? {
        var value = 0, digits = 0
        while position < text.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[position]), digits < 4 {
            value = value * 10 + Int(text[position] - UInt8(ascii: "0"))
            position += 1
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    private mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard position < text.count, text[position] == UInt8(character.value) else { return false }
        position += 1
        return true
    }
}
