import StopSheetCore
import Synchronization

extension Daemon {
    /// SIGHUP, on the reload thread: re-read flags, environment and the config file; build the
    /// whole new configuration (every option the options table's `reload` column says a reload
    /// applies; each one changed that takes effect at restart is named in one warning), publish it
    /// in one store generation, and only then reconfigure the refreshers, so no refresh installs
    /// under the old zone or limits; refresh both caches; then READY=1 again. Only while running: a SIGHUP during start-up finds the configuration just read.
    ///
    /// A configuration that does not load keeps the running one whole: one error naming the
    /// problem, no refresh, no "reloaded", and READY=1 all the same so systemd's reload job ends.
    /// A stop during the reload ends it quietly: the stop answers the refreshes it waits for,
    /// and READY=1 must not follow STOPPING=1.
    func reload() {
        guard state.advance(from: [.running], announce: { notifier.reloading() }) else { return }
        let started = SystemClock.monotonicMilliseconds()
        do {
            try apply(try reloadedConfig())
        } catch {
            Log.error("reload failed, keeping the running configuration: \(error)", [JournalEvent.reloadFailed.field])
            state.advance(from: [.running]) { notifier.ready(status: statusLine()) }
            return
        }
        refreshAllAndWait()
        state.advance(from: [.running]) {
            let zone = TimeZones.journal(store.zone)
            Log.notice("reloaded; \(zone.words)", [JournalEvent.reload.field, ("DURATION_MS", String(SystemClock.monotonicMilliseconds() - started))]
                           + zone.fields)
            notifier.ready(status: statusLine())
        }
    }

    private struct ReloadFailure: Error, CustomStringConvertible {
        var description: String
    }

    private func reloadedConfig() throws -> Config {
        var warnings: [ConfigProblem] = []
        guard case .run(let next) = try Config.load(arguments: arguments, environment: environment, readFile: Daemon.readConfigFile, warnings: &warnings) else {
            throw ReloadFailure(description: "the command line asks for --help or --version")
        }
        for warning in warnings { warning.log() }
        return next
    }

    /// Everything is built before anything is applied: one bad URL or zone leaves all as it was.
    private func apply(_ next: Config) throws {
        let previous = config.withLock { $0 }
        let (applied, ignored) = previous.reloaded(to: next)
        let now = clock.now()
        let zones = try TimeZones(configured: applied.timeZone)
        let settings = try refreshers.map { refresher in
            // The caches with a source are the daemon's refreshers, made at start.
            guard let setting = try Daemon.settings(refresher.cache, applied, startedAt: now, clock: clock, chicago: zones.chicago) else {
                throw ReloadFailure(description: "\(refresher.cache.rawValue) has no source any more: removing a source takes effect at restart")
            }
            return setting
        }
        for cache in CacheName.allCases where !refreshers.contains(where: { $0.cache == cache }) {
            if try Daemon.settings(cache, applied, startedAt: now, clock: clock, chicago: zones.chicago) != nil {
                throw ReloadFailure(description: "\(cache.rawValue) has a source now: adding a source takes effect at restart")
            }
        }
        // What the loop was built with stays in force, and in `config`, until a restart.
        for flag in ignored {
            Log.warning("reload: \(flag) changed, which takes effect at restart; keeping the running value",
                        [JournalEvent.reloadIgnored.field, ("OPTION", flag)])
        }
        config.withLock { $0 = applied }
        Log.configure(level: applied.logLevel)
        // One generation: the sources, the stale-after limits and the zones together, before any
        // refresher runs under its new setting.
        store.reconfigure(sources: Dictionary(uniqueKeysWithValues: zip(refreshers.map(\.cache), settings.map(\.source.url))),
                          staleAfterSeconds: Dictionary(uniqueKeysWithValues: CacheName.allCases.map { ($0, applied.staleAfterSeconds($0)) }),
                          radiusMeters: applied.facilitiesRadius,
                          zones: zones)
        for (refresher, setting) in zip(refreshers, settings) {
            refresher.reconfigure(source: setting.source, interval: setting.interval, reading: applied.reading,
                                  spacingMilliseconds: Int64(applied.refreshSpacing * 1000))
        }
    }

    /// Until each refresher has answered: after its refresh, or at once when the daemon stops.
    private func refreshAllAndWait() {
        let done = WakeSignal()
        let remaining = Atomic<Int>(refreshers.count)
        for refresher in refreshers {
            refresher.refreshNow { _ in if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { done.signal() } }
        }
        done.wait(milliseconds: -1)
    }
}
