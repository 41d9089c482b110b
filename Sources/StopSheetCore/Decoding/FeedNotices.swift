/// What a feed's decoding had to skip: a row or a value it could not use (too few or too many
/// fields, a bad number or coordinate, a duplicate id, a parent that does not exist or a parent
/// cycle). The feed still loads; `health.stations.notices` and the journal say what was skipped.
/// Only the count and the first few are kept, so a broken feed of millions of rows costs nothing.
public struct FeedNotices: Sendable, Equatable {
    public struct Notice: Sendable, Equatable {
        /// The table, e.g. `stops.txt`.
        public var file: String
        /// The line the row starts on (1-based; the header is line 1).
        public var line: Int
        /// In words: what was wrong and what was skipped.
        public var problem: String

        public init(file: String, line: Int, problem: String) {
            self.file = file
            self.line = line
            self.problem = problem
        }
    }

    /// How many notices are kept in `first`.
    public static let kept = 10

    public private(set) var count = 0
    /// The first `kept` notices, in the order the tables were read and by line within one.
    public private(set) var first: [Notice] = []

    public init() {}

    /// Counts one notice; its text is made only when it is kept.
    public mutating func add(_ file: String, line: Int, _ problem: @autoclosure () -> String) {
        count += 1
        if first.count < Self.kept { first.append(Notice(file: file, line: line, problem: problem())) }
    }

    /// Adds another table's notices after these.
    public mutating func append(_ other: FeedNotices) {
        count += other.count
        first = Array((first + other.first).prefix(Self.kept))
    }

    /// The same notices with `prefix` before each file name (a second source's tables: a
    /// deployer's map's `topology pathways.txt`).
    public func prefixingFiles(_ prefix: String) -> FeedNotices {
        var prefixed = self
        prefixed.first = first.map { Notice(file: prefix + $0.file, line: $0.line, problem: $0.problem) }
        return prefixed
    }

    /// One table's notices from two readers of it, interleaved by line.
    public static func merged(_ one: FeedNotices, _ other: FeedNotices) -> FeedNotices {
        var merged = FeedNotices()
        merged.count = one.count + other.count
        merged.first = Array((one.first + other.first).sorted { $0.line < $1.line }.prefix(Self.kept))
        return merged
    }
}
