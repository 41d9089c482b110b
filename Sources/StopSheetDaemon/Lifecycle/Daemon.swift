import Glibc
import Posix
import StopSheetCore
import Synchronization

/// The daemon's lifecycle in one place, systemd-style, after swift-service-lifecycle's
/// `ServiceGroup`: an explicit `state`, the parts started in order and stopped in reverse.
///
///     start:  listener → store → refreshers → serving loop → notifier (READY=1 once serving)
///     stop:   notifier (STOPPING=1) → refreshers (their waiting callers answered) → store
///             (memory only) → serving loop (drain, listeners closed) → bound socket unlinked
///
/// SIGTERM/SIGINT stop (exit 0), SIGHUP reloads (`Daemon+Reload.swift`). A stop never waits for
/// an upstream: a reload or refresh in flight is abandoned to its own thread, so the daemon exits
/// within the drain bound whatever is in flight.
///
/// Threads: `main` runs on the process's main thread, which builds the parts and then becomes the
/// serving loop (`Server.run`) until the stop has drained it. `stop` is called by the signals
/// thread (or by `run` when serving failed), `reload` by the reload thread, `tick` and
/// `becomeReady` on the serving loop. Every field is immutable and Sendable; `state` and
/// `config` change under their locks.
public final class Daemon: Sendable {
    let arguments: [String]
    let environment: [String: String]
    /// The configuration in force; a reload replaces it.
    let config: Locked<Config>
    let state = Locked(LifecycleState.initial)
    let notifier: ServiceNotifier
    let store: Store
    /// The wall clock of every part (`--now` pins it); the loop's tick reads it.
    let clock: DaemonClock
    let refreshers: [Refresher]
    private let server: Server
    /// Push; its state is the serving loop's (compared on every store change and every tick).
    private let subscriptions: SubscriptionRegistry
    private let reloads = ReloadThread()
    /// `--notify-ready`, as read at start (a reload keeps it: readiness is a start's).
    private let readyWhen: NotifyReady
    private let startedAt = SystemClock.monotonicMilliseconds()
    /// The socket file this process bound (and so removes at exit, if it is still that file); nil
    /// under socket activation.
    private let boundSocket: BoundSocketFile?
    /// When the watchdog was last fed (monotonic ms); the serving loop alone reads and writes it.
    private let lastPing = Atomic<Int64>(0)

    /// Runs the daemon to completion and returns the process exit status. `built` is handed the
    /// daemon before it runs: a test running it in its own process stops it with `stop(reason:)`
    /// as the signals thread would (a signal sent to that process would reach the test's threads,
    /// which do not block it).
    public static func main(arguments: [String], environment: [String: String], built: (Daemon) -> Void = { _ in }) -> Int32 {
        // First of all, so that a SIGTERM from here on is taken by the signals thread (once it
        // runs) and ends in a clean exit 0, never in death by signal.
        Signals.block()
        ignoreSIGPIPE()
        if Config.asksForCheck(arguments) { return ConfigCheckCommand.run(arguments: arguments, environment: environment, readFile: readConfigFile) }
        let config: Config
        var warnings: [ConfigProblem] = []
        do {
            switch try Config.load(arguments: arguments, environment: environment, readFile: readConfigFile, warnings: &warnings) {
            case .help:
                print(Config.usage, terminator: "")
                return 0
            case .version:
                print(StopSheetVersion.line(program: "stopsheetd"))
                return 0
            case .run(let parsed):
                config = parsed
            }
        } catch {
            printError("stopsheetd: \(error)")
            return 2
        }
        Log.configure(level: config.logLevel, sink: makeDefaultLogSink())
        for warning in warnings { warning.log() }
        // Pinned now, before anything reads it: the demo's rebase and the store's first snapshot follow it.
        let clock = config.now.map(DaemonClock.pinned(at:)) ?? .system
        do {
            let daemon = try Daemon(config: config, clock: clock, arguments: arguments, environment: environment)
            built(daemon)
            return daemon.run() ? 0 : 1
        } catch {
            Log.error("cannot start: \(error)", [JournalEvent.startFailed.field])
            return 1
        }
    }

    /// Builds the parts in start order; nothing runs yet (`run` starts the threads).
    private init(config: Config, clock: DaemonClock, arguments: [String], environment: [String: String]) throws {
        self.clock = clock
        self.arguments = arguments
        self.environment = environment
        self.config = Locked(config)
        let notifier = ServiceNotifier.fromEnvironment()
        self.notifier = notifier
        let readyWhen = config.notifyReady
        self.readyWhen = readyWhen
        let now = clock.now()
        let zones = try TimeZones(configured: config.timeZone)
        // The caches with a source; one given alone leaves the other not configured.
        let sources = try CacheName.allCases.compactMap { cache in
            try Daemon.settings(cache, config, startedAt: now, clock: clock, chicago: zones.chicago).map { (cache: cache, source: $0.source, interval: $0.interval) }
        }

        // 1. The listener: inherited from systemd (socket activation), or bound here.
        var listeners = try ListenFDs.take()
        let activated = !listeners.isEmpty
        if listeners.isEmpty { listeners = [try bindUnixListener(path: config.socketPath)] }
        // Right after bind, in a directory nobody else can write to: this is the file just made.
        boundSocket = activated ? nil : BoundSocketFile(path: config.socketPath)

        // 2. The store, empty until the first loads.
        let store = Store(alertsSource: sources.first { $0.cache == .alerts }?.source.url,
                          stationsSource: sources.first { $0.cache == .stations }?.source.url,
                          facilitiesSource: sources.first { $0.cache == .facilities }?.source.url, clock: clock, zones: zones)
        store.applyStaleAfter(config)
        self.store = store

        // 3. The refreshers. STATUS= changes the moment a refresh does, not only at the next tick.
        let announce: @Sendable () -> Void = { notifier.status(Daemon.statusLine(store, readyWhen)) }
        refreshers = sources.map { cache, source, interval in
            Refresher(cache: cache, source: source, interval: interval, store: store, reading: config.reading,
                      spacingMilliseconds: Int64(config.refreshSpacing * 1000),
                      onRefreshed: announce)
        }

        // 4. The serving loop. The service reports the server's connection count and the server
        // dispatches to the service: the count is read through a reference filled in once both exist.
        let serverReference = Locked<Server?>(nil)
        let pushCounters = SubscriptionCounters()
        let service = StopSheetService(store: store, refreshers: refreshers, connections: { serverReference.withLock { $0?.connectionCount ?? 0 } },
                                       subscriptions: pushCounters, clock: clock)
        var dispatcher = Dispatcher()
        service.register(in: &dispatcher)
        StatsMethod(since: now, store: store, server: { serverReference.withLock { $0 } }).register(in: &dispatcher)
        let subscriptions = SubscriptionRegistry(service: service, limits: SubscriptionLimits(config), counters: pushCounters)
        self.subscriptions = subscriptions
        subscriptions.register(in: &dispatcher)
        var limits = ServerLimits(config)
        // The watchdog is fed from the loop's tick, so the tick must come often enough.
        if let ping = notifier.watchdogPingInterval { limits.tickOften(enoughFor: ping) }
        server = Server(listeners: listeners, dispatcher: dispatcher, limits: limits)
        serverReference.withLock { [server] in $0 = server }
        // 5. The notifier says READY=1 from the loop's first turn (`becomeReady`).
        // A pinned clock is said in the start entry itself, as a warning: a daemon left running
        // with --now shows yesterday's (or tomorrow's) alerts as current.
        let pinned = config.now.map { store.zone.iso8601($0) }
        let zone = TimeZones.journal(store.zone)
        Log.log(pinned == nil ? .notice : .warning,
                "starting stopsheetd \(StopSheetVersion.current) on \(activated ? "\(listeners.count) inherited socket(s)" : config.socketPath); \(zone.words)"
                    + (pinned.map { "; the clock is pinned by --now: it started at \($0), not the real time" } ?? ""),
                [JournalEvent.start.field] + sources.map { ("UPSTREAM_URL", $0.source.url) } + zone.fields
                    + (pinned.map { [("CLOCK_PINNED_AT", $0)] } ?? []))
    }

    /// Starts the threads, serves on this thread until stopped, then finishes the stop. False when
    /// serving failed.
    private func run() -> Bool {
        state.withLock { $0 = .starting }
        // Push: every store change is compared on the loop, where the subscriptions live. The
        // change that completes the first loads is also the moment of READY=1 under
        // `--notify-ready when-loaded`. Hooked before the refreshers start, so none is missed.
        store.onChange { [self] old, new in
            subscriptions.storeChanged(to: new, post: server.post)
            if new.notYetLoaded.isEmpty, !old.notYetLoaded.isEmpty { server.post { [self] in becomeReady() } }
        }
        // The first trim here, before any refresher runs: its lock is made and glibc's allocator set
        // up on this thread, which the refreshers' threads then start after (HeapTrim's comment;
        // under TSan two refreshers' first trims at once raced on the lock's lazy creation).
        HeapTrim.releaseFreePages()
        // In start order; joined in reverse once the loop has drained.
        var threads = refreshers.map { $0.start() }
        threads.append(reloads.start { [self] in reload() })
        let signals = Signals.startWaiting(reload: { [reloads] in reloads.request() }, stop: { [self] signal in stop(reason: "on signal \(signal)") })
        threads.append(signals)
        server.onTick = { [self] in tick() }
        // The loop's own word that it took the stop: `systemctl status` shows it, and a test
        // knows from it that the drain has begun.
        server.onDrain = { [notifier] open in
            notifier.status("stopping: finishing \(open) open connection\(open == 1 ? "" : "s"), accepting none")
        }
        // Posted work runs once the loop is up, so READY=1 means "serving", not "about to".
        server.post { [self] in
            let waiting = store.current.notYetLoaded
            if readyWhen == .whenLoaded, !waiting.isEmpty {
                Log.notice("serving; READY=1 waits for \(Daemon.names(waiting)) to load (--notify-ready when-loaded)",
                           [JournalEvent.waitingForData.field])
            }
            becomeReady()
        }
        var served = true
        do {
            try server.run()
        } catch {
            Log.error("serving failed: \(error)", [JournalEvent.serveFailed.field])
            served = false
        }
        // The loop has drained and closed the listeners: the last part to stop.
        stop(reason: "because serving failed")
        // A stop that did not come by signal leaves the signals thread waiting for one.
        signals.send(SIGTERM)
        Daemon.join(threads.reversed())
        if let boundSocket, !boundSocket.removeIfUnchanged() {
            Log.notice("left \(boundSocket.path) alone: it is no longer the socket this daemon bound", [JournalEvent.socketReplaced.field])
        }
        state.withLock { $0 = .stopped }
        Log.notice("stopped", [JournalEvent.stop.field])
        return served
    }

    /// Begins the stop, parts in reverse order of start; the serving loop then drains and `run`
    /// finishes. Safe from any thread, any number of times: only the first call while starting
    /// or running does anything.
    func stop(reason: String) {
        let first = state.advance(from: [.starting, .running], to: .stopping) {
            Log.notice("stopping \(reason)", [JournalEvent.stopping.field])
            notifier.stopping(status: "stopping")
        }
        guard first else { return }
        reloads.stop()
        // A `refresh` caller still waiting is answered now, so the drain does not wait for it.
        for refresher in refreshers.reversed() { refresher.stop() }
        server.stop()
    }

    /// How long the threads, all told them to stop, have to end: a refresher abandons its fetch
    /// within about a second; decoding a large body it had already fetched can take longer. A
    /// stop with nothing left to drain stays within 2 s.
    static let threadStopMilliseconds: Int64 = 1500

    /// Joins each thread before the process exits, within `threadStopMilliseconds` in all. One
    /// still busy is named in the log and left: the exit must not wait on it past the unit's
    /// TimeoutStopSec=.
    private static func join(_ threads: [PosixThread]) {
        let deadline = SystemClock.monotonicMilliseconds() + threadStopMilliseconds
        for thread in threads where !thread.join(milliseconds: deadline - SystemClock.monotonicMilliseconds()) {
            Log.warning("exiting while thread \(thread.name) is still busy", [JournalEvent.threadBusyAtExit.field])
            thread.detach()
        }
    }

    /// On the serving loop, once it serves (and, under `--notify-ready when-loaded`, again when
    /// the first loads are complete): READY=1, unless a stop came first (then systemd has had
    /// STOPPING=1 and must not hear READY=1 after it), or the data it waits for is not in yet.
    private func becomeReady() {
        if readyWhen == .whenLoaded, !store.current.notYetLoaded.isEmpty {
            notifier.status(statusLine())
            return
        }
        state.advance(from: [.starting], to: .running) {
            notifier.ready(status: statusLine())
            Log.notice("ready", [JournalEvent.ready.field, ("DURATION_MS", String(SystemClock.monotonicMilliseconds() - startedAt))])
        }
    }

    /// On the serving loop, at least every tick interval: alert kinds follow the clock (the store
    /// rebuilds when an alert's start or end has passed), data turns stale, the watchdog is fed,
    /// STATUS= kept current.
    private func tick() {
        if store.rebuildIfBoundaryPassed(now: clock.now()) {
            Log.debug("alert kinds changed with the clock", [JournalEvent.alertsBoundary.field])
        }
        // Data turns stale with the clock alone, no store change: subscribers hear of it here.
        // A rebuild above is a change of the store, compared through its hook like any other.
        subscriptions.clockMoved()
        if let interval = notifier.watchdogPingInterval {
            let now = SystemClock.monotonicMilliseconds()
            if now - lastPing.load(ordering: .relaxed) >= interval.clampedNanoseconds / 1_000_000 * 95 / 100 {
                notifier.watchdogPing()
                lastPing.store(now, ordering: .relaxed)
            }
        }
        // Once stopping, STATUS= tells the stop (`onDrain`), not the data.
        if state.withLock({ $0 }) != .stopping { notifier.status(statusLine()) }
    }

    func statusLine() -> String { Daemon.statusLine(store, readyWhen) }

    /// STATUS=: the store's line, led under `--notify-ready when-loaded` by what READY=1 still
    /// waits for (`waiting for alerts to load: serving 143 stations, no train alerts; alerts
    /// failing …`). Loads are never undone, so once READY=1 is sent the lead is gone for good.
    static func statusLine(_ store: Store, _ readyWhen: NotifyReady) -> String {
        let line = store.serviceStatus(now: store.clock.now())
        let waiting = store.current.notYetLoaded
        guard readyWhen == .whenLoaded, !waiting.isEmpty else { return line }
        return String("waiting for \(names(waiting)) to load: \(line)".prefix(200))
    }

    /// `alerts and stations`.
    static func names(_ caches: [CacheName]) -> String { caches.map(\.rawValue).joined(separator: " and ") }

    /// What `config` says one cache's refresher uses: the configured URL (or the embedded demo
    /// snapshot, with `--demo` and no URL) and the interval; nil when the cache has no source
    /// (not configured). The one place that maps a cache to its settings.
    static func settings(_ cache: CacheName, _ config: Config, startedAt: Instant, clock: DaemonClock, chicago: TimeZoneRules) throws -> (source: any Source, interval: Double)? {
        let (url, headersFile, interval) = switch cache {
        case .alerts: (config.alertsURL, config.alertsHeadersFile, config.alertsInterval)
        case .stations: (config.stationsURL, config.stationsHeadersFile, config.stationsInterval)
        case .facilities: (config.facilitiesURL, config.facilitiesHeadersFile, config.facilitiesInterval)
        }
        // The demo has no lift status (no `DemoSource.Feed` of that name): it stays not configured.
        guard let url else {
            guard config.demo, let feed = DemoSource.Feed(rawValue: cache.rawValue) else { return nil }
            return (DemoSource(feed, rebasedTo: startedAt, chicago: chicago, clock: clock), interval)
        }
        let source = try makeSource(url: url, options: try httpOptions(config, headersFile, "--\(cache.rawValue)-headers-file", for: cache.rawValue))
        switch cache {
        case .alerts:
            return (source, interval)
        case .stations:
            guard let url = config.topologyURL else { return (source, interval) }
            let topology = try makeSource(url: url, options: try httpOptions(config, config.topologyHeadersFile, "--topology-headers-file", for: "topology"))
            return (CompanionSource(main: source, companion: topology, named: "topology", required: false), interval)
        case .facilities:
            let inventory = try config.facilitiesInventoryURL.map {
                try makeSource(url: $0, options: try httpOptions(config, config.facilitiesInventoryHeadersFile, "--facilities-inventory-headers-file", for: "facilities inventory"))
            }
            let stationTable = try config.facilitiesStationsURL.map {
                try makeSource(url: $0, options: try httpOptions(config, config.facilitiesStationsHeadersFile, "--facilities-stations-headers-file",
                                                                 for: "facilities station table"))
            }
            return (CompanionSource(main: source, companion: inventory, named: "inventory", required: true, stationTable: stationTable), interval)
        }
    }

    /// One source's fetch options, with its headers file read (at start and on each reload, so a
    /// rotated key is a SIGHUP away). The journal names the headers, never their values.
    private static func httpOptions(_ config: Config, _ headersFile: String?, _ flag: String, for name: String) throws -> HTTPOptions {
        var options = HTTPOptions(version: StopSheetVersion.current, timeoutMilliseconds: Int(config.httpTimeout * 1000))
        if let headersFile {
            do { options.headers = try RequestHeaders.load(headersFile) } catch { throw Config.Failure(description: "\(flag): \(error)") }
            Log.info("\(name): \(options.headers)", [("HEADERS_FILE", options.headers.fileName)])
        }
        return options
    }

    /// A config file's text, or nil when there is no file at `path` (an absent config is an
    /// empty one). Anything else that is not a readable regular file of at most 1 MiB without NUL
    /// bytes is an error naming why: a FIFO must not hang start-up or a reload, a directory or
    /// /dev/zero must not pass for an empty config, and a NUL would cut a value short at the C
    /// boundary while `health` showed the whole string.
    static func readConfigFile(_ path: String) throws(Config.Failure) -> String? {
        switch LocalFile.read(path, maxBytes: 1 << 20, regularOnly: true) {
        case .success(let bytes):
            if let nul = bytes.firstIndex(of: 0) {
                throw Config.Failure(description: "--config: \(path) contains a NUL byte (at byte \(nul))")
            }
            return String(decoding: bytes, as: UTF8.self)
        case .failure(let failure):
            var info = stat()
            if lstat(path, &info) != 0, errno == ENOENT { return nil }
            throw Config.Failure(description: "--config: \(failure.message)")
        }
    }
}
