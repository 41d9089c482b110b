import StopSheetCore

/// `stopsheetctl stats`: the daemon's counters, one line per family, zero counts left out of
/// the long lists (requests, errors) so what happened stands out. Reads the members it finds, so
/// a counter the daemon adds later shows without a change here.
enum StatsRendering {
    static func render(_ stats: JSON) -> String {
        let connections = stats["connections"]
        var lines = ["Counted since \(stats["since"]?.stringValue ?? "?")"]
        lines.append("requests      " + counts(stats["requests"], skippingZeros: true))
        lines.append("errors        " + counts(stats["errors"], skippingZeros: true))
        lines.append("connections   \(number(connections?["open"])) open, \(number(connections?["accepted"])) accepted; refused: "
            + counts(connections?["refused"], skippingZeros: false) + "; closed: " + counts(connections?["closed"], skippingZeros: false))
        let refreshes = stats["refreshes"]?.objectValue?.members.map { cache, entry in
            "\(cache) \(number(entry["ok"])) ok, \(number(entry["failed"])) failed (\(entry["source"]?.stringValue ?? "?"))"
        }
        lines.append("refreshes     " + (refreshes ?? []).joined(separator: "; "))
        lines.append("bytes         \(number(stats["bytes"]?["in"])) in, \(number(stats["bytes"]?["out"])) out")
        lines.append("notifications \(number(stats["notificationsSent"])) sent")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `name count, …` for an object of counts; `none` when nothing is left to show.
    private static func counts(_ object: JSON?, skippingZeros: Bool) -> String {
        let members = (object?.objectValue?.members ?? []).filter { !skippingZeros || $0.value.intValue != 0 }
        return members.isEmpty ? "none" : members.map { "\($0.key) \(number($0.value))" }.joined(separator: ", ")
    }

    private static func number(_ value: JSON?) -> String { value.map(Rendering.scalar) ?? "?" }
}
