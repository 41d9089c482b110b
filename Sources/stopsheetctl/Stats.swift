import StopSheetClient
import StopSheetCore

extension Command {
    static let stats = Command(
        name: "stats", operands: "", summary: "the daemon's counters since it started", operandCount: 0...0
    ) { invocation throws(Failure) in
        let stats = try invocation.call(try invocation.connect()) { (client) throws(ClientError) in try client.stats().json }
        invocation.output(stats) { StatsRendering.render(stats, into: &$0) }
        return ExitStatus.success
    }
}

/// `stopsheetctl stats`: the daemon's counters, one paragraph per family, zero counts left out of
/// the long lists (requests, errors) so what happened stands out. Reads the members it finds, so
/// a counter the daemon adds later shows without a change here.
enum StatsRendering {
    static func render(_ stats: JSON, into page: inout Page) {
        let connections = stats["connections"]
        page.paragraph("Counted since \(stats["since"]?.stringValue ?? "?")")
        page.paragraph(counts(stats["requests"], skippingZeros: true), hangingIndent: 14, lead: "requests     ")
        page.paragraph(counts(stats["errors"], skippingZeros: true), hangingIndent: 14, lead: "errors       ")
        page.paragraph("\(number(connections?["open"])) open, \(number(connections?["accepted"])) accepted; refused: "
            + counts(connections?["refused"], skippingZeros: false) + "; closed: " + counts(connections?["closed"], skippingZeros: false),
            hangingIndent: 14, lead: "connections  ")
        let refreshes = (stats["refreshes"]?.objectValue?.members ?? []).map { cache, entry -> TerminalText in
            "\(cache) \(number(entry["ok"])) ok, \(number(entry["failed"])) failed (\(entry["source"]?.stringValue ?? "?"))"
        }
        page.paragraph(refreshes.isEmpty ? "none" : refreshes.dropFirst().reduce(refreshes[0]) { $0 + "; " + $1 }, hangingIndent: 14, lead: "refreshes    ")
        page.paragraph("\(number(stats["bytes"]?["in"])) in, \(number(stats["bytes"]?["out"])) out", hangingIndent: 14, lead: "bytes        ")
        page.paragraph("\(number(stats["notificationsSent"])) sent", hangingIndent: 14, lead: "notifications")
    }

    /// `name count, …` for an object of counts; `none` when nothing is left to show.
    private static func counts(_ object: JSON?, skippingZeros: Bool) -> TerminalText {
        let members = (object?.objectValue?.members ?? []).filter { !skippingZeros || $0.value.intValue != 0 }
        guard let first = members.first else { return "none" }
        return members.dropFirst().reduce("\(first.key) \(number(first.value))" as TerminalText) { $0 + ", \($1.key) \(number($1.value))" }
    }

    private static func number(_ value: JSON?) -> TerminalText { value.map(Rendering.scalar) ?? "?" }
}
