extension Duration {
    /// Whole nanoseconds, negative durations as zero, absurdly long ones capped at ~31 years.
    var clampedNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        // Both parts carry the sign: under a second, a negative duration is (0, -attoseconds).
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        return min(seconds, 1_000_000_000) * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
