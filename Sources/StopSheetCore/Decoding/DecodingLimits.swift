/// Bounds on what an upstream body may make the decoders build, so a hostile or broken upstream
/// costs a failed refresh rather than the daemon's stack or memory.
public struct DecodingLimits: Sendable, Equatable {
    /// Deepest JSON nesting accepted; the CTA alerts format needs 8 levels.
    public var maxDepth: Int
    /// Most alerts, stop rows or stop objects accepted (CTA has 300 platforms and tens of alerts).
    public var maxItems: Int

    public init(maxDepth: Int = 64, maxItems: Int = 100_000) {
        self.maxDepth = maxDepth
        self.maxItems = maxItems
    }

    func check(itemCount: Int) throws(DecodingFailure) {
        if itemCount > maxItems { throw .tooMany(count: itemCount, limit: maxItems) }
    }
}
