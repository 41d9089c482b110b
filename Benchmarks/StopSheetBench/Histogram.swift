/// Latencies in nanoseconds, log-linear like HdrHistogram: exact below 128 ns, then 64 buckets
/// per power of two (under 1.6 % error), so percentiles need no stored samples and recording is
/// an increment.
struct Histogram {
    private var counts = [UInt64](repeating: 0, count: 64 * 42)
    private(set) var total: UInt64 = 0

    @inline(__always)
    mutating func record(_ nanos: Int64) {
        let value = UInt64(max(0, nanos))
        let index: Int
        if value < 128 {
            index = Int(value)
        } else {
            let shift = (64 - value.leadingZeroBitCount) - 7
            index = shift * 64 + Int(value >> UInt64(shift))
        }
        counts[min(index, counts.count - 1)] += 1
        total += 1
    }

    mutating func merge(_ other: Histogram) {
        for index in counts.indices { counts[index] += other.counts[index] }
        total += other.total
    }

    /// The value at quantile `q` (0…1), the middle of its bucket.
    func quantile(_ q: Double) -> Int64 {
        guard total > 0 else { return 0 }
        let rank = UInt64((Double(total) * q).rounded(.up))
        var seen: UInt64 = 0
        for (index, count) in counts.enumerated() where count > 0 {
            seen += count
            if seen >= max(rank, 1) { return Self.middle(of: index) }
        }
        return Self.middle(of: counts.count - 1)
    }

    private static func middle(of index: Int) -> Int64 {
        if index < 128 { return Int64(index) }
        let shift = index / 64 - 1
        let low = Int64(index % 64 + 64) << shift
        return low + (Int64(1) << shift) / 2
    }
}
