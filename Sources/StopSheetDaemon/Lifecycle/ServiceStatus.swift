import StopSheetCore

extension Store {
    /// The systemd STATUS= line: `serving 143 stations, 17 train alerts (6 active, 11 planned);
    /// alerts 12s old` (`(stale)` past `--alerts-stale-after`), and the failing source, if any — with "no data yet" when it never loaded,
    /// so nobody reads "failing" as "serving the last good data". At most 200 characters.
    func serviceStatus(now: Instant) -> String {
        let generation = current
        let (alerts, stations, facilities, snapshot) = (generation.alerts, generation.stations, generation.facilities, generation.snapshot)
        // A cache without a source is said so, so nobody waits for it: `serving no train alerts (not configured)`.
        let unset = " (not configured)"
        var line = "serving \(stations.loaded ? String(stations.count) : "no") stations\(stations.configured ? "" : unset), "
            + "\(alerts.loaded ? String(alerts.count) : "no") train alerts\(alerts.configured ? "" : unset)"
        if alerts.loaded {
            let kinds = snapshot.liveAlerts.map(\.kind)
            line += " (\(kinds.filter { $0 == .active }.count) active, \(kinds.filter { $0 == .planned }.count) planned)"
        }
        if let loadedAt = alerts.loadedAt { line += "; alerts \(now.seconds(since: loadedAt))s old\(alerts.freshness(now: now).stale ? " (stale)" : "")" }
        // Lift status is said only when configured: most deployments have none.
        if facilities.configured {
            line += ", \(facilities.loaded ? String(facilities.count) : "no") lift statuses"
            if facilities.loaded, facilities.freshness(now: now).stale { line += " (stale)" }
        }
        for (cache, status) in [(CacheName.alerts, alerts), (.stations, stations), (.facilities, facilities)] where status.consecutiveFailures > 0 {
            line += "; \(cache.rawValue) failing (\(status.consecutiveFailures) in a row\(status.loaded ? "" : ", no data yet")): \(status.lastError ?? "unknown error")"
        }
        return String(line.prefix(200))
    }
}
