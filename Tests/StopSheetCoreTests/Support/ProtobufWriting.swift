/// Just enough of a protobuf encoder to write the wire forms the reader's unit tests need
/// (the GTFS-realtime feeds themselves come from an independent encoder: Tests/GTFSRealtime).
enum Wire {
    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        repeat {
            let byte = UInt8(value & 0x7F)
            value >>= 7
            out.append(value == 0 ? byte : byte | 0x80)
        } while value != 0
        return out
    }

    static func key(_ number: Int, _ type: UInt64) -> [UInt8] { varint(UInt64(number) << 3 | type) }
    static func field(_ number: Int, varint value: UInt64) -> [UInt8] { key(number, 0) + varint(value) }
    static func field(_ number: Int, _ payload: [UInt8]) -> [UInt8] { key(number, 2) + varint(UInt64(payload.count)) + payload }
    static func field(_ number: Int, _ text: String) -> [UInt8] { field(number, Array(text.utf8)) }
}
