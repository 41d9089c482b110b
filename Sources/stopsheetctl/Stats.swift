import StopSheetClient
import StopSheetCore

extension Command {
    static let stats = Command(
        name: "stats", operands: "", summary: "the daemon's counters since it started", operandCount: 0...0
    ) { invocation throws(Failure) in
        let stats = try invocation.call(try invocation.connect()) { (client) throws(ClientError) in try client.stats() }
        invocation.output(stats.json) { StatsRendering.render(stats.value, into: &$0) }
        return ExitStatus.success
    }
}

/// `stopsheetctl stats`: the daemon's counters, one paragraph per family, zero counts left out of
/// the long lists (requests, errors) so what happened stands out. Requests in name order with
/// other names last, errors in the protocol's order of codes, as the daemon lists them.
enum StatsRendering {
    static func render(_ stats: Answer.Stats, into page: inout Page) {
        let connections = stats.connections
        let requests = stats.requests.keys.filter { $0 != Answer.Stats.unknownMethod }.sorted() + [Answer.Stats.unknownMethod]
        let errors = ErrorCode.allCases.map { String($0.rawValue) } + [Answer.Stats.otherError]
        page.paragraph("Counted since \(stats.since.value ?? "?")")
        page.paragraph(counts(requests.map { ($0, stats.requests[$0]) }, skippingZeros: true), hangingIndent: 14, lead: "requests     ")
        page.paragraph(counts(errors.map { ($0, stats.errors[$0]) }, skippingZeros: true), hangingIndent: 14, lead: "errors       ")
        let closed = connections.closed
        typealias Closed = Answer.ClosedCounts.CodingKeys
        let closedCounts = [(Closed.finished, closed.finished), (Closed.idle, closed.idle), (Closed.stuck, closed.stuck), (Closed.vanished, closed.vanished)]
        page.paragraph("\(connections.open) open, \(connections.accepted) accepted; refused: "
            + counts([(Answer.RefusedCounts.CodingKeys.busy.rawValue, connections.refused.busy)], skippingZeros: false) + "; closed: "
            + counts(closedCounts.map { ($0.rawValue, $1) }, skippingZeros: false),
            hangingIndent: 14, lead: "connections  ")
        typealias Caches = Answer.RefreshCounts.CodingKeys
        let refreshes = [(Caches.alerts, stats.refreshes.alerts), (Caches.stations, stats.refreshes.stations)].map { cache, entry -> TerminalText in
            "\(cache.rawValue) \(entry.ok) ok, \(entry.failed) failed (\(entry.source.value ?? "not configured"))"
        }
        page.paragraph(refreshes.dropFirst().reduce(refreshes[0]) { $0 + "; " + $1 }, hangingIndent: 14, lead: "refreshes    ")
        page.paragraph("\(stats.bytes.in) in, \(stats.bytes.out) out", hangingIndent: 14, lead: "bytes        ")
        page.paragraph("\(stats.notificationsSent) sent", hangingIndent: 14, lead: "notifications")
    }

    /// `name count, …`; `none` when nothing is left to show.
    private static func counts(_ entries: [(String, Int?)], skippingZeros: Bool) -> TerminalText {
        let shown = entries.compactMap { name, count in count.map { (name, $0) } }.filter { !skippingZeros || $0.1 != 0 }
        guard let first = shown.first else { return "none" }
        return shown.dropFirst().reduce("\(first.0) \(first.1)" as TerminalText) { $0 + ", \($1.0) \($1.1)" }
    }
}
