import Glibc
import StopSheetCore
import Synchronization

/// The daemon's lifecycle, systemd-style: configure, take or bind the socket, serve, report
/// READY=1 once serving, ping the watchdog from the serving loop, reload on SIGHUP, drain and
/// exit 0 on SIGTERM/SIGINT. `main` wires the parts; each part lives in its own file.
public final class Daemon: Sendable {
    private let arguments: [String]
    private let environment: [String: String]
    private let config: Locked<Config>
    private let notifier = ServiceNotifier.fromEnvironment()
    private let store: Store
    private let refreshers: [Refresher]
    private let server: Server
    private let service: StopSheetService
    private let startedAt = SystemClock.monotonicMilliseconds()
    /// The socket path this process bound (and so removes at exit); nil under socket activation.
    private let boundPath: String?

    /// Runs the daemon to completion and returns the process exit status.
    public static func main(arguments: [String], environment: [String: String]) -> Int32 {
        let config: Config
        do {
            switch try Config.load(arguments: arguments, environment: environment, readFile: readTextFile) {
            case .help:
                print(Config.usage, terminator: "")
                return 0
            case .version:
                print("stopsheetd \(StopSheetVersion.current)")
                return 0
            case .run(let parsed):
                config = parsed
            }
        } catch {
            printError("stopsheetd: \(error)")
            return 2
        }
        Log.configure(level: config.logLevel, sink: makeDefaultLogSink())
        ignoreSIGPIPE()
        // Signals go to one thread that waits for them; every thread started later inherits the mask.
        var signals = handledSignals()
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        do {
            let daemon = try Daemon(config: config, arguments: arguments, environment: environment)
            return daemon.run() ? 0 : 1
        } catch {
            Log.error("cannot start: \(error)", [("STOPSHEET_EVENT", "start_failed")])
            return 1
        }
    }

    private init(config: Config, arguments: [String], environment: [String: String]) throws {
        self.arguments = arguments
        self.environment = environment
        self.config = Locked(config)
        let now = SystemClock.now()
        let alertsSource = try Daemon.source(.alerts, config, startedAt: now)
        let stationsSource = try Daemon.source(.stations, config, startedAt: now)
        let store = Store(alertsSource: alertsSource.url, stationsSource: stationsSource.url, now: now)
        self.store = store
        // STATUS= changes the moment a refresh does, not only at the next tick.
        let notifier = notifier
        let announce: @Sendable () -> Void = { notifier.status(Daemon.statusLine(store)) }
        refreshers = [
            Refresher(cache: .alerts, source: alertsSource, interval: config.alertsInterval, store: store, language: config.language, onRefreshed: announce),
            Refresher(cache: .stations, source: stationsSource, interval: config.stationsInterval, store: store, onRefreshed: announce),
        ]
        var listeners = try ListenFDs.take()
        let activated = !listeners.isEmpty
        if listeners.isEmpty { listeners = [try bindUnixListener(path: config.socketPath)] }
        boundPath = activated ? nil : config.socketPath
        // The service reports the server's connection count, and the server dispatches to the
        // service: the count is read through a reference filled in once both exist.
        let serverReference = Locked<Server?>(nil)
        service = StopSheetService(store: store, refreshers: refreshers, connections: { serverReference.withLock { $0?.connectionCount ?? 0 } })
        var dispatcher = Dispatcher()
        service.register(in: &dispatcher)
        var limits = Daemon.limits(config)
        // The watchdog is pinged from the serving loop's tick, so the tick must come often enough.
        if let ping = ServiceNotifier.fromEnvironment().watchdogPingInterval { limits.tickInterval = min(.seconds(1), ping / 4) }
        server = Server(listeners: listeners, dispatcher: dispatcher, limits: limits)
        serverReference.withLock { [server] in $0 = server }
        Log.notice("starting stopsheetd \(StopSheetVersion.current) on \(activated ? "\(listeners.count) inherited socket(s)" : config.socketPath)",
                   [("STOPSHEET_EVENT", "start"), ("UPSTREAM_URL", "\(alertsSource.url) \(stationsSource.url)")])
    }

    private static func limits(_ config: Config) -> ServerLimits {
        ServerLimits(maxLineBytes: config.maxLineBytes, maxConnections: config.maxConnections, maxBatch: config.maxBatch,
                     maxDepth: config.maxDepth, maxPendingOutputBytes: config.maxOutputBytes,
                     stuckTimeout: .milliseconds(Int64(config.stuckTimeout * 1000)), idleTimeout: .milliseconds(Int64(config.idleTimeout * 1000)))
    }

    /// The configured URL, or the embedded demo snapshot when `--demo` and no URL.
    private static func source(_ cache: CacheName, _ config: Config, startedAt: Instant) throws -> any Source {
        let url = cache == .alerts ? config.alertsURL : config.stationsURL
        guard let url else { return DemoSource(cache, rebasedTo: startedAt) }
        let options = HTTPOptions(version: StopSheetVersion.current, timeoutMilliseconds: Int(config.httpTimeout * 1000))
        return try makeSource(url: url, options: options)
    }

    /// Serves until stopped; false when serving failed.
    private func run() -> Bool {
        for refresher in refreshers { refresher.start() }
        startThread(name: "signals") { [self] in handleSignals() }
        let lastPing = Atomic<Int64>(0)
        let pingInterval = notifier.watchdogPingInterval.map { Int64($0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) }
        server.onTick = { [self] in
            if let pingInterval {
                let now = SystemClock.monotonicMilliseconds()
                if now - lastPing.load(ordering: .relaxed) >= pingInterval * 95 / 100 {
                    notifier.watchdogPing()
                    lastPing.store(now, ordering: .relaxed)
                }
            }
            notifier.status(statusLine())
        }
        // Posted work runs once the loop is up, so READY=1 means "serving", not "about to".
        server.post { [self] in
            notifier.ready(status: statusLine())
            Log.notice("ready", [("STOPSHEET_EVENT", "ready"), ("DURATION_MS", String(SystemClock.monotonicMilliseconds() - startedAt))])
        }
        var served = true
        do {
            try server.run()
        } catch {
            Log.error("serving failed: \(error)", [("STOPSHEET_EVENT", "serve_failed")])
            served = false
        }
        if let boundPath { unlink(boundPath) }
        for refresher in refreshers { refresher.stop() }
        Log.notice("stopped", [("STOPSHEET_EVENT", "stop")])
        return served
    }

    /// `serving 143 stations, 17 train alerts (6 active, 11 planned); alerts 12s old` — and the
    /// failing source, if any.
    func statusLine() -> String { Daemon.statusLine(store) }

    static func statusLine(_ store: Store) -> String {
        let now = SystemClock.now()
        let alerts = store.status(.alerts)
        let stations = store.status(.stations)
        var line = "serving \(stations.loaded ? String(stations.count) : "no") stations, \(alerts.loaded ? String(alerts.count) : "no") train alerts"
        if alerts.loaded {
            let kinds = store.snapshot.liveAlerts.map(\.kind)
            line += " (\(kinds.filter { $0 == .active }.count) active, \(kinds.filter { $0 == .planned }.count) planned)"
        }
        if let loadedAt = alerts.loadedAt { line += "; alerts \(now.seconds(since: loadedAt))s old" }
        for (name, status) in [("alerts", alerts), ("stations", stations)] where status.consecutiveFailures > 0 {
            line += "; \(name) failing (\(status.consecutiveFailures) in a row): \(status.lastError ?? "unknown error")"
        }
        return String(line.prefix(200))
    }

    private func handleSignals() {
        var signals = Daemon.handledSignals()
        while true {
            var signal: Int32 = 0
            guard sigwait(&signals, &signal) == 0 else { continue }
            if signal == SIGHUP {
                reload()
            } else {
                notifier.stopping(status: "stopping")
                Log.notice("stopping on signal \(signal)", [("STOPSHEET_EVENT", "stopping")])
                server.stop()
                return
            }
        }
    }

    /// SIGHUP: re-read flags, environment and the config file; apply what can change without a
    /// restart (sources, intervals, log level); refresh both caches; then READY=1 again.
    private func reload() {
        notifier.reloading()
        let started = SystemClock.monotonicMilliseconds()
        do {
            guard case .run(let next) = try Config.load(arguments: arguments, environment: environment, readFile: readTextFile) else { return }
            let previous = config.withLock { old in defer { old = next }; return old }
            Log.configure(level: next.logLevel)
            if next.socketPath != previous.socketPath { Log.warning("reload: a new --socket takes effect at restart") }
            let now = SystemClock.now()
            for refresher in refreshers {
                let interval = refresher.cache == .alerts ? next.alertsInterval : next.stationsInterval
                refresher.reconfigure(source: try Daemon.source(refresher.cache, next, startedAt: now), interval: interval, language: next.language)
            }
        } catch {
            Log.error("reload: keeping the running configuration: \(error)", [("STOPSHEET_EVENT", "reload_failed")])
        }
        let done = WakeSignal()
        let remaining = Atomic<Int>(refreshers.count)
        for refresher in refreshers {
            refresher.refreshNow { _ in if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { done.signal() } }
        }
        done.wait(milliseconds: -1)
        Log.notice("reloaded", [("STOPSHEET_EVENT", "reload"), ("DURATION_MS", String(SystemClock.monotonicMilliseconds() - started))])
        notifier.ready(status: statusLine())
    }

    private static func handledSignals() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&set, signal) }
        return set
    }
}

/// The process environment as a dictionary.
public func processEnvironment() -> [String: String] {
    var result: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
        let text = String(cString: pointer)
        if let equals = text.firstIndex(of: "=") { result[String(text[..<equals])] = String(text[text.index(after: equals)...]) }
        entry += 1
    }
    return result
}

/// A config file's text, or nil when it cannot be read (or is over 1 MiB: a config that large is
/// a mistake, and half of one would be worse).
func readTextFile(_ path: String) -> String? {
    guard case .success(let bytes) = FileSource.read(path, maxBytes: 1 << 20) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
}
