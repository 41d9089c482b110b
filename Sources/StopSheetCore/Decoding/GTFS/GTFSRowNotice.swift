/// A row of a GTFS table that was skipped (or read without one of its values), and why: the feed
/// still loads, and `health` can say what it left out.
public struct GTFSRowNotice: Hashable, Sendable, CustomStringConvertible {
    /// The table's file name (`pathways.txt`).
    public var file: String
    /// 1-based, the header being line 1 (a quoted field may hold a line break: then the record's).
    public var line: Int
    /// One English phrase, e.g. `pathway_mode '9' is not 1 to 7`.
    public var problem: String

    public init(file: String, line: Int, problem: String) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    public var description: String { "\(file) row \(line): \(problem)" }
}
