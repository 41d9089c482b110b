import CLinux
import StopSheetCore
import Synchronization

/// Keeps one cache fresh on its own thread: first load at start-up, then every interval with a
/// little jitter; after a failure, sooner, with capped exponential backoff (never faster than
/// once a second). Lifetime rules (DESIGN §3): a failure keeps the last good data; a good
/// station load replaces the whole set. The alerts refresher also wakes at the snapshot's next
/// time boundary so alert kinds follow the clock.
public final class Refresher: Sendable {
    public typealias Completion = @Sendable (CacheStatus) -> Void

    public let cache: CacheName
    private let store: Store
    private struct Settings {
        var source: any Source
        var interval: Double
        var validators: CacheValidators?
        /// GTFS-realtime translations: this language first.
        var language: String
    }
    private let settings: Locked<Settings>
    private let requests = Locked<[Completion]>([])
    private let stopped = Atomic<Bool>(false)
    private let wake = WakeSignal()
    /// Called after every refresh round, on the refresher's thread (the daemon updates STATUS=).
    private let onRefreshed: @Sendable () -> Void

    public init(cache: CacheName, source: any Source, interval: Double, store: Store, language: String = "en",
                onRefreshed: @escaping @Sendable () -> Void = {}) {
        self.cache = cache
        self.store = store
        self.onRefreshed = onRefreshed
        settings = Locked(Settings(source: source, interval: interval, validators: nil, language: language))
    }

    public func start() {
        startThread(name: "refresh-\(cache.rawValue)") { [self] in run() }
    }

    /// Refreshes as soon as the refresher thread is free, then calls `completion` with the outcome.
    public func refreshNow(_ completion: @escaping Completion) {
        requests.withLock { $0.append(completion) }
        wake.signal()
    }

    /// Takes a new source and interval (on reload). Validators of the old source are dropped.
    public func reconfigure(source: any Source, interval: Double, language: String = "en") {
        settings.withLock { $0 = Settings(source: source, interval: interval, validators: nil, language: language) }
        store.updateStatus(cache) { $0.source = source.url }
    }

    public func stop() {
        stopped.store(true, ordering: .releasing)
        wake.signal()
    }

    private func run() {
        var due = SystemClock.monotonicMilliseconds()
        while !stopped.load(ordering: .acquiring) {
            if cache == .alerts, store.rebuildIfBoundaryPassed(now: SystemClock.now()) {
                Log.debug("alert kinds changed with the clock", [("STOPSHEET_EVENT", "alerts_boundary")])
                onRefreshed()
            }
            let waiting = requests.withLock { pending in defer { pending = [] }; return pending }
            let untilDue = due - SystemClock.monotonicMilliseconds()
            if waiting.isEmpty && untilDue > 0 {
                wake.wait(milliseconds: min(untilDue, millisecondsToNextBoundary() ?? untilDue))
                continue
            }
            let status = refreshOnce()
            // A refresh frees a whole decoded body and often a whole snapshot; hand the pages back
            // so the daemon's size follows its data, not the largest body an upstream ever sent.
            malloc_trim(0)
            due = SystemClock.monotonicMilliseconds() + delayAfter(status)
            store.updateStatus(cache) { $0.nextRefreshAt = SystemClock.now().adding(seconds: (due - SystemClock.monotonicMilliseconds() + 999) / 1000) }
            let final = store.status(cache)
            onRefreshed()
            for completion in waiting { completion(final) }
        }
    }

    private func millisecondsToNextBoundary() -> Int64? {
        guard cache == .alerts, let boundary = store.snapshot.nextBoundary else { return nil }
        return max(0, boundary.secondsSince1970 * 1000 - SystemClock.nowMilliseconds())
    }

    /// Jitter spreads refreshes of many daemons; backoff doubles from 1 s up to the interval.
    private func delayAfter(_ status: CacheStatus) -> Int64 {
        let interval = settings.withLock { $0.interval }
        let seconds: Double
        if status.consecutiveFailures == 0 {
            seconds = interval * Double.random(in: 0.95...1.05)
        } else {
            let backoff = Double(1 << min(status.consecutiveFailures - 1, 20))
            seconds = max(1, min(backoff, interval))
        }
        return Int64(seconds * 1000)
    }

    /// One fetch-decode-install round; returns the cache's status after it.
    @discardableResult
    public func refreshOnce() -> CacheStatus {
        let (source, validators) = settings.withLock { ($0.source, $0.validators) }
        let startedAt = SystemClock.now()
        let started = SystemClock.monotonicMilliseconds()
        let outcome = source.fetch(validators: validators)
        let duration = Int(SystemClock.monotonicMilliseconds() - started)
        let now = SystemClock.now()
        var fields: [(String, String)] = [("UPSTREAM", cache.rawValue), ("UPSTREAM_URL", source.url), ("DURATION_MS", String(duration))]
        store.updateStatus(cache) {
            $0.lastAttemptAt = startedAt
            $0.lastDurationMilliseconds = duration
        }
        switch outcome {
        case .success(.body(let bytes, let newValidators, let httpStatus)):
            if let httpStatus { fields.append(("HTTP_STATUS", String(httpStatus))) }
            do {
                let count = try install(bytes, from: source, at: now)
                settings.withLock { $0.validators = newValidators }
                succeeded(httpStatus: httpStatus, at: now)
                fields.append((cache == .alerts ? "ALERT_COUNT" : "STATION_COUNT", String(count)))
                Log.info("\(cache.rawValue) refreshed: \(count) \(cache == .alerts ? "train alerts" : "stations") in \(duration) ms",
                         [("STOPSHEET_EVENT", "refresh")] + fields)
            } catch {
                failed("\(cache.rawValue) body did not decode: \(error)", httpStatus: httpStatus, fields: fields)
            }
        case .success(.notModified(let httpStatus)):
            fields.append(("HTTP_STATUS", String(httpStatus)))
            if store.status(cache).loaded {
                succeeded(httpStatus: httpStatus, at: now)
                Log.info("\(cache.rawValue) not modified", [("STOPSHEET_EVENT", "refresh")] + fields)
            } else {
                settings.withLock { $0.validators = nil }
                failed("\(cache.rawValue): 304 Not Modified with no data loaded", httpStatus: httpStatus, fields: fields)
            }
        case .failure(let failure):
            if let status = failure.httpStatus { fields.append(("HTTP_STATUS", String(status))) }
            failed(failure.message, httpStatus: failure.httpStatus, fields: fields)
        }
        return store.status(cache)
    }

    /// Decodes and installs a body; returns the count installed.
    private func install(_ bytes: [UInt8], from source: any Source, at now: Instant) throws -> Int {
        switch cache {
        case .alerts:
            let alerts = try AlertsDecoder.decode(bytes, language: settings.withLock { $0.language })
            store.install(alerts: alerts, at: now)
            return store.snapshot.liveAlerts.count
        case .stations:
            let directory = try StationsBody.directory(bytes, source: source)
            // An empty station list is an upstream fault, not news that the 'L' closed.
            guard directory.count > 0 else { throw FetchFailure("no stations in the body") }
            store.install(stations: directory, at: now)
            return directory.count
        }
    }

    private func succeeded(httpStatus: Int?, at now: Instant) {
        store.updateStatus(cache) {
            $0.loaded = true
            $0.loadedAt = now
            $0.lastError = nil
            $0.consecutiveFailures = 0
            $0.lastHTTPStatus = httpStatus
        }
    }

    private func failed(_ message: String, httpStatus: Int?, fields: [(String, String)]) {
        // Failure texts quote the upstream (a root key, a date, a reason phrase): keep what
        // `health` serves and the journal stores to one short line, whatever it sent.
        let message = Log.oneLine(message, maxBytes: 400)
        store.updateStatus(cache) {
            $0.lastError = message
            $0.consecutiveFailures += 1
            $0.lastHTTPStatus = httpStatus
        }
        Log.warning("\(cache.rawValue) refresh failed, keeping the last good data: \(message)", [("STOPSHEET_EVENT", "refresh_failed")] + fields)
    }
}
