import StopSheetCore
import Synchronization

/// Keeps one cache fresh: first load at start-up, then every interval with a little jitter; after
/// a failure, sooner, with capped exponential backoff (never faster than once a second). Lifetime
/// rules (docs/stop-sheet.md §2): a failure keeps the last good data; a good station load replaces the whole
/// set. What the cache's bytes mean is its `CacheLoader`'s business, not the refresher's.
///
/// Threads: `start()` gives it a thread of its own (`refresh-<cache>`), which alone fetches,
/// decodes and installs. `refreshNow`, `reconfigure` and `stop` may be called from any thread (the
/// serving loop, the reload thread, the signals thread); they hand over through `settings`,
/// `callers` and `wake`.
public final class Refresher: Sendable {
    public typealias Completion = @Sendable (CacheStatus) -> Void

    public let cache: CacheName
    private let loader: CacheLoader
    private let store: Store
    private struct Settings {
        var source: any Source
        var interval: Double
        var validators: CacheValidators?
        /// How bodies are read (`--language`, `--train-route-types`, `--agency-name`).
        var reading: FeedReading
    }
    private let settings: Locked<Settings>
    /// Who is waiting for a refresh. Each completion is taken out under the lock before it is
    /// called, so it is called exactly once: by the refresher's thread after its round, or by
    /// `stop()` when the daemon stops first.
    private struct Callers {
        /// Asked for a refresh the thread has not started yet.
        var waiting: [Completion] = []
        /// Answered when the round in progress ends.
        var inRound: [Completion] = []
        var stopped = false
    }
    private let callers = Locked(Callers())
    private let wake = WakeSignal()
    /// Raised by `stop()`: a fetch in progress gives up within about a second.
    private let stopFlag = StopFlag()
    /// Called after every refresh round, on the refresher's thread (the daemon updates STATUS=).
    private let onRefreshed: @Sendable () -> Void

    public init(cache: CacheName, source: any Source, interval: Double, store: Store, reading: FeedReading = .init(),
                spacingMilliseconds: Int64 = Int64(Config.defaults.refreshSpacing * 1000), onRefreshed: @escaping @Sendable () -> Void = {}) {
        self.cache = cache
        spacing = Atomic(spacingMilliseconds)
        self.loader = CacheLoader(cache)
        self.store = store
        self.onRefreshed = onRefreshed
        settings = Locked(Settings(source: source, interval: interval, validators: nil, reading: reading))
    }

    /// Starts the refresher's thread; it ends soon after `stop()` (a fetch in progress is abandoned).
    public func start() -> PosixThread {
        PosixThread(name: "refresh-\(cache.rawValue)") { [self] in run() }
    }

    /// Refreshes as soon as the refresher thread is free, then calls `completion` with the
    /// outcome of a fetch that started after this call. Once stopped, answers at once with the
    /// status as it is. Calls are coalesced: all that arrive before a fetch starts share it, and
    /// a fetch asked for starts no sooner than `spacingMilliseconds` (`--refresh-spacing`, 1 s by
    /// default) after the previous one started, so no number of callers makes more than one
    /// upstream fetch a second.
    public func refreshNow(_ completion: @escaping Completion) {
        let accepted = callers.withLock { callers in
            if !callers.stopped { callers.waiting.append(completion) }
            return !callers.stopped
        }
        if accepted { wake.signal() } else { completion(store.status(cache)) }
    }

    /// Takes a new source, interval, reading and spacing (on reload). Validators of the old
    /// source are dropped. The store's status is the caller's to publish (`Store.reconfigure`),
    /// with everything else a reload changes, as one generation.
    public func reconfigure(source: any Source, interval: Double, reading: FeedReading = .init(), spacingMilliseconds: Int64) {
        let sameURL = settings.withLock { settings in
            defer { settings = Settings(source: source, interval: interval, validators: nil, reading: reading) }
            return settings.source.url == source.url
        }
        // The upstream's Retry-After binds its URL: a reload that keeps the URL keeps the wait.
        if !sameURL { heldUntil.store(0, ordering: .relaxed) }
        spacing.store(spacingMilliseconds, ordering: .relaxed)
        // A caller waiting out the old spacing is served by the new one.
        wake.signal()
    }

    /// Ends the refresher's loop and answers everyone waiting for a refresh with the status as it
    /// is, at once: a fetch in progress (an upstream that hangs until `--http-timeout`) must not
    /// hold up the daemon's drain. That fetch is abandoned (an HTTP transfer within about a
    /// second), and nothing it brought is installed.
    public func stop() {
        stopFlag.raise()
        let unanswered = callers.withLock { callers in
            callers.stopped = true
            defer { (callers.waiting, callers.inRound) = ([], []) }
            return callers.waiting + callers.inRound
        }
        wake.signal()
        let status = store.status(cache)
        for completion in unanswered { completion(status) }
    }

    /// The least time between the starts of two fetches that callers asked for.
    private let spacing: Atomic<Int64>
    /// Until when (monotonic milliseconds) the upstream's `Retry-After` holds fetches back: a
    /// `refresh` asked for before then is answered at once with the status, whose
    /// `nextRefreshAt` says when the next attempt is. 0: no hold.
    private let heldUntil = Atomic<Int64>(0)

    private func run() {
        var due = SystemClock.monotonicMilliseconds()
        var lastStarted = Int64.min / 2
        while true {
            // nil: stopped; 0: fetch now; otherwise how long to sleep first.
            var held: [Completion] = []
            let sleep: Int64? = callers.withLock { callers in
                guard !callers.stopped else { return nil }
                let now = SystemClock.monotonicMilliseconds()
                // Inside the upstream's Retry-After, a caller learns when the next attempt is
                // rather than waiting for it (up to an hour) or hammering through.
                if now < heldUntil.load(ordering: .relaxed) {
                    swap(&held, &callers.waiting)
                    return max(1, due - now)
                }
                let askedAt = callers.waiting.isEmpty ? Int64.max : lastStarted + spacing.load(ordering: .relaxed)
                guard min(due, askedAt) <= now else { return min(due, askedAt) - now }
                callers.inRound = callers.waiting
                callers.waiting = []
                return 0
            }
            guard let sleep else { return }
            if !held.isEmpty {
                let status = store.status(cache)
                for completion in held { completion(status) }
            }
            guard sleep == 0 else {
                wake.wait(milliseconds: sleep)
                continue
            }
            lastStarted = SystemClock.monotonicMilliseconds()
            let delay = refreshOnce()
            // A refresh frees a whole decoded body and often a whole snapshot; hand the pages back
            // so the daemon's size follows its data, not the largest body an upstream ever sent.
            HeapTrim.releaseFreePages()
            due = SystemClock.monotonicMilliseconds() + delay
            let final = store.status(cache)
            onRefreshed()
            let answered = callers.withLock { callers in defer { callers.inRound = [] }; return callers.inRound }
            for completion in answered { completion(final) }
        }
    }

    /// The longest wait after a failure, whatever the interval: a box that boots offline with an
    /// hourly station interval has its stations minutes, not an hour, after the network is back.
    static let maxFailureBackoffSeconds: Double = 300

    /// Jitter spreads refreshes of many daemons; backoff doubles from 1 s up to the interval, and
    /// never past `maxFailureBackoffSeconds`.
    private func delayAfter(_ status: CacheStatus) -> Int64 {
        let interval = settings.withLock { $0.interval }
        let seconds: Double
        if status.consecutiveFailures == 0 {
            seconds = interval * Double.random(in: 0.95...1.05)
        } else {
            seconds = Self.backoffSeconds(afterFailures: status.consecutiveFailures, interval: interval)
        }
        return Int64(seconds * 1000)
    }

    /// 1 s, 2 s, 4 s … after 1, 2, 3 … failures in a row, up to the interval and the cap.
    static func backoffSeconds(afterFailures failures: Int, interval: Double) -> Double {
        let backoff = Double(1 << min(max(failures, 1) - 1, 20))
        return max(1, min(backoff, interval, maxFailureBackoffSeconds))
    }

    /// How a round ended, for the status it commits.
    private enum RoundResult {
        case succeeded(httpStatus: Int?)
        case failed(String, httpStatus: Int?, retryAfterSeconds: Int? = nil)
    }

    /// One fetch-decode-install round, published as one change of the store: what the round
    /// brought (new data or none), its outcome and the next refresh's time together, so nobody
    /// sees the new data beside the old status. Returns the wait before the next round, in
    /// milliseconds from its end.
    private func refreshOnce() -> Int64 {
        let (source, validators, reading) = settings.withLock { ($0.source, $0.validators, $0.reading) }
        // The store's clock: the times this round stamps are the store's status.
        let startedAt = store.clock.now()
        let started = SystemClock.monotonicMilliseconds()
        let outcome = source.fetch(validators: validators, stop: stopFlag)
        // Stopping: whatever the fetch brought (or its abandonment) is not news to record.
        if stopFlag.isRaised { return 0 }
        let now = store.clock.now()
        var fields: [(String, String)] = [("UPSTREAM", cache.rawValue), ("UPSTREAM_URL", source.url)]
        var content: CacheContent?
        let result: RoundResult
        switch outcome {
        case .success(.body(let bytes, let newValidators, let httpStatus, let companion, let stationTable)):
            if let httpStatus { fields.append(("HTTP_STATUS", String(httpStatus))) }
            do {
                content = try loader.decode(CacheLoader.Input(body: bytes, companion: companion, stationTable: stationTable, source: source, reading: reading, zones: store.zones,
                                                              local: store.zone, previous: store.current.facilitiesFetched,
                                                              previousStations: store.snapshot.stations))
                settings.withLock { $0.validators = newValidators }
                result = .succeeded(httpStatus: httpStatus)
            } catch {
                result = .failed("\(cache.rawValue) body did not decode: \(error)", httpStatus: httpStatus)
            }
        case .success(.notModified(let httpStatus, _, _)):
            fields.append(("HTTP_STATUS", String(httpStatus)))
            // Only this thread loads the cache, so `loaded` cannot change before the commit.
            if store.status(cache).loaded {
                result = .succeeded(httpStatus: httpStatus)
            } else {
                settings.withLock { $0.validators = nil }
                result = .failed("\(cache.rawValue): 304 Not Modified with no data loaded", httpStatus: httpStatus)
            }
        case .failure(let failure):
            if let status = failure.httpStatus { fields.append(("HTTP_STATUS", String(status))) }
            if let seconds = failure.retryAfterSeconds { fields.append(("RETRY_AFTER", String(seconds))) }
            result = .failed(failure.message, httpStatus: failure.httpStatus, retryAfterSeconds: failure.retryAfterSeconds)
        }
        var delay: Int64 = 0
        var retryAfterSeconds: Int?
        store.commit(cache, installing: content, at: now) { status in
            status.lastAttemptAt = startedAt
            switch result {
            case .succeeded(let httpStatus):
                status.loaded = true
                status.loadedAt = now
                status.lastError = nil
                status.consecutiveFailures = 0
                status.lastHTTPStatus = httpStatus
                status.refreshesSucceeded += 1
            case .failed(let message, let httpStatus, let retryAfter):
                retryAfterSeconds = retryAfter
                // Failure texts quote the upstream (a root key, a date, a reason phrase): keep what
                // `health` serves and the journal stores to one short line, whatever it sent.
                status.lastError = Log.oneLine(message, maxBytes: 400)
                status.consecutiveFailures += 1
                status.lastHTTPStatus = httpStatus
                status.refreshesFailed += 1
            }
            // The upstream's Retry-After is a floor under the backoff, never a ceiling.
            delay = max(delayAfter(status), Int64(retryAfterSeconds ?? 0) * 1000)
            status.nextRefreshAt = now.adding(seconds: (delay + 999) / 1000)
        }
        // The whole round, as the log reports it: the fetch, and the decode, which for a feed
        // directory is most of it (its fetch reads stops.txt alone), and the install.
        let duration = SystemClock.monotonicMilliseconds() - started
        heldUntil.store(retryAfterSeconds.map { _ in SystemClock.monotonicMilliseconds() + delay } ?? 0, ordering: .relaxed)
        fields.append(("DURATION_MS", String(duration)))
        let status = store.status(cache)
        if let kept = Self.companionKept(outcome, content) {
            // The stations' notice says itself whether a last good map stands.
            let what = cache == .facilities ? "keeping the last good inventory: " : "the topology map was not taken, "
            Log.warning("\(cache.rawValue): \(what)\(Log.oneLine(kept.message, maxBytes: 400))",
                        [JournalEvent.refreshFailed.field] + fields + (kept.retryAfterSeconds.map { [("RETRY_AFTER", String($0))] } ?? []))
        }
        if let kept = Self.stationTableKept(outcome, content) {
            Log.warning("\(cache.rawValue): keeping the last good station table: \(Log.oneLine(kept.message, maxBytes: 400))",
                        [JournalEvent.refreshFailed.field] + fields + (kept.retryAfterSeconds.map { [("RETRY_AFTER", String($0))] } ?? []))
        }
        switch result {
        case .succeeded where content != nil:
            fields.append((loader.countField, String(status.count)))
            Log.info("\(cache.rawValue) refreshed: \(status.count) \(loader.noun) in \(duration) ms", [JournalEvent.refresh.field] + fields)
            if let notices = status.notices, let sentence = notices.sentence {
                Log.notice("\(cache.rawValue): \(sentence)", [JournalEvent.feedNotices.field, ("NOTICE_COUNT", String(notices.count))] + fields)
            }
            // Either load can move a unit: the stations' maps, or the units.
            if cache != .alerts, let counts = store.snapshot.facilityCounts { Self.logPlacement(counts, fields) }
        case .succeeded:
            Log.info("\(cache.rawValue) not modified", [JournalEvent.refresh.field] + fields)
        case .failed:
            let kept = status.loaded ? "keeping the last good data" : "no data yet"
            Log.warning("\(cache.rawValue) refresh failed, \(kept): \(status.lastError ?? "")", [JournalEvent.refreshFailed.field] + fields)
        }
        return delay
    }

    /// Why a round kept the companion in force (the lift inventory, the stations' map): its URL
    /// failed (whatever the main URL brought), or the body it brought did not decode.
    static func companionKept(_ outcome: Result<Fetched, FetchFailure>, _ content: CacheContent?) -> FetchFailure? {
        if case .facilities(let load)? = content { return load.inventoryKept }
        if case .stations(let directory)? = content {
            return directory.notices.first.first { $0.file == StationsLoad.keptNoticeFile }.map { FetchFailure($0.problem) }
        }
        if case .success(let fetched) = outcome { return fetched.companionFailure }
        return nil
    }

    /// Why a round kept the station table in force (`--facilities-stations-url`): as `companionKept`.
    private static func stationTableKept(_ outcome: Result<Fetched, FetchFailure>, _ content: CacheContent?) -> FetchFailure? {
        if case .facilities(let load)? = content { return load.stationTableKept }
        switch outcome {
        case .success(.body(_, _, _, _, .failed(let failure)?)), .success(.notModified(_, _, .failed(let failure)?)): return failure
        default: return nil
        }
    }

    /// Once per lift-status or stations load, once both are in: where the units are
    /// (`health.facilities.placement`'s counts), a notice when any is not placed, for the
    /// deployer to map (`stopsheetctl facilities --unplaced`).
    private static func logPlacement(_ counts: [FacilityPlacement.Count: Int], _ fields: [(String, String)]) {
        let words: [(FacilityPlacement.Count, String, String)] = [(.placed, "placed", "PLACED"), (.offTheMap, "off the map", "OFF_THE_MAP"),
                                                                   (.ambiguous, "ambiguous", "AMBIGUOUS"), (.unplaced, "unplaced", "UNPLACED")]
        let message = "facilities: lift units " + words.map { "\(counts[$0.0] ?? 0) \($0.1)" }.joined(separator: ", ")
        let all = [JournalEvent.facilityPlacement.field] + words.map { ($0.2, String(counts[$0.0] ?? 0)) } + fields
        Log.log(placementLevel(counts), message, all)
    }

    /// A notice when some unit is not placed (the deployer has mapping to do); info when every
    /// unit is, or there are none.
    static func placementLevel(_ counts: [FacilityPlacement.Count: Int]) -> LogLevel {
        counts.contains { $0.key != .placed && $0.value > 0 } ? .notice : .info
    }
}
