import StopSheetCore

extension Store {
    /// The systemd STATUS= line: `serving 143 stations, 17 train alerts (6 active, 11 planned);
    /// alerts 12s old` (`(stale)` past `--alerts-stale-after`), and the failing source, if any — with "no data yet" when it never loaded,
    /// so nobody reads "failing" as "serving the last good data". At most 200 characters.
    func serviceStatus(now: Instant) -> String {
        let generation = current
        let (alerts, stations, snapshot) = (generation.alerts, generation.stations, generation.snapshot)
        var line = "serving \(stations.loaded ? String(stations.count) : "no") stations, \(alerts.loaded ? String(alerts.count) : "no") train alerts"
        if alerts.loaded {
            let kinds = snapshot.liveAlerts.map(\.kind)
            line += " (\(kinds.filter { $0 == .active }.count) active, \(kinds.filter { $0 == .planned }.count) planned)"
        }
        if let loadedAt = alerts.loadedAt { line += "; alerts \(now.seconds(since: loadedAt))s old\(alerts.freshness(now: now).stale ? " (stale)" : "")" }
        for (cache, status) in [(CacheName.alerts, alerts), (.stations, stations)] where status.consecutiveFailures > 0 {
            line += "; \(cache.rawValue) failing (\(status.consecutiveFailures) in a row\(status.loaded ? "" : ", no data yet")): \(status.lastError ?? "unknown error")"
        }
        return String(line.prefix(200))
    }
}
