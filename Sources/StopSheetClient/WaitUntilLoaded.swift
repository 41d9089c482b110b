#if canImport(Glibc)
import Glibc
#endif
import Posix
import StopSheetCore
import StopSheetProtocol

/// What `waitUntilLoaded` waits for: every cache the daemon has a source for, or one of them.
public enum LoadTarget: String, CaseIterable, Sendable {
    case all, alerts, stations, facilities

    /// The caches it looks at: each one's `health` member name and entry (nil: a daemon of
    /// protocol 2.0 has no lift status, which is as good as not configured).
    public var caches: [(name: String, entry: @Sendable (Answer.Health) -> Answer.CacheHealth?)] {
        let alerts = (Answer.Health.CodingKeys.alerts.rawValue, { @Sendable (health: Answer.Health) -> Answer.CacheHealth? in health.alerts })
        let stations = (Answer.Health.CodingKeys.stations.rawValue, { @Sendable (health: Answer.Health) -> Answer.CacheHealth? in health.stations })
        let facilities = (Answer.Health.CodingKeys.facilities.rawValue, { @Sendable (health: Answer.Health) -> Answer.CacheHealth? in health.facilities })
        return switch self {
        case .all: [alerts, stations, facilities]
        case .alerts: [alerts]
        case .stations: [stations]
        case .facilities: [facilities]
        }
    }
}

/// Waiting for a daemon to be there and to have data, for integration tests and scripts: told by
/// the kernel (inotify) and by the daemon (a `health` subscription), never by polling answers.
extension StopSheetClient {
    /// Connects once `socketPath` accepts, waiting at most `timeout` for it: a socket (or its
    /// directory) not made yet is awaited with inotify (`DirectoryWatch`). A socket file that
    /// refuses (between a daemon's bind and listen, or left by one that died) is tried again at
    /// the next change in its directory (a new daemon's socket replacing it), or after 10 ms,
    /// doubling up to 200 ms, since no event tells when a socket starts to listen. At the
    /// timeout, `.stillWaiting` naming the socket and the last reason.
    public static func connect(socketPath: String, waitingUpTo timeout: Duration, answerTimeout: Duration = .seconds(15)) throws(ClientError) -> StopSheetClient {
        let deadline = ContinuousClock.now + timeout
        var watch: DirectoryWatch?
        var retry = Duration.milliseconds(10)
        while true {
            // Armed before each look, so that a socket made between the look and the wait is seen.
            do throws(Errno) { try watch?.arm() } catch { throw .cannotConnect(path: socketPath, error) }
            let reason: Errno
            do { return try StopSheetClient(socketPath: socketPath, timeout: answerTimeout) } catch {
                guard case .cannotConnect(_, let errno) = error, errno.code == ENOENT || errno.code == ECONNREFUSED else { throw error }
                reason = errno
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw .stillWaiting("still waiting after \(seconds(timeout)) for the daemon's socket \(socketPath) (\(reason))") }
            guard let watch else {
                do throws(Errno) { watch = try DirectoryWatch(for: socketPath) } catch { throw .cannotConnect(path: socketPath, error) }
                continue
            }
            if reason.code == ENOENT {
                _ = watch.wait(milliseconds: left.milliseconds)
            } else {
                _ = watch.wait(milliseconds: min(retry, left).milliseconds)
                retry = min(retry * 2, .milliseconds(200))
            }
        }
    }

    /// Until the daemon has loaded `target` once (`all`: every cache it has a source for), told by
    /// push: it subscribes to `health` and reads `healthChanged` notifications, and returns at once
    /// when the data is there already. Returns `health` as it was then. Throws `.stillWaiting` with
    /// one line naming what it still waits for (the cache, its source, its last error) when
    /// `timeout` passes first, or at once when `target` is a cache the daemon has no source for.
    public func waitUntilLoaded(_ target: LoadTarget = .all, timeout: Duration) throws(ClientError) -> Reply<Answer.Health> {
        try waitUntilLoaded(target, deadline: ContinuousClock.now + timeout, timeout: timeout)
    }

    /// Both waits under one `timeout`: for the socket (`connect(socketPath:waitingUpTo:)`), then
    /// for the data (`waitUntilLoaded`). What `stopsheetctl wait` does. Returns the connected
    /// client and `health` once loaded.
    public static func waitUntilLoaded(socketPath: String, _ target: LoadTarget = .all, timeout: Duration,
                                       answerTimeout: Duration = .seconds(15)) throws(ClientError) -> (client: StopSheetClient, health: Reply<Answer.Health>) {
        let deadline = ContinuousClock.now + timeout
        let client = try connect(socketPath: socketPath, waitingUpTo: timeout, answerTimeout: answerTimeout)
        return (client, try client.waitUntilLoaded(target, deadline: deadline, timeout: timeout))
    }

    /// `timeout`: the whole wait's, for the line that says how long it waited.
    private func waitUntilLoaded(_ target: LoadTarget, deadline: ContinuousClock.Instant, timeout: Duration) throws(ClientError) -> Reply<Answer.Health> {
        let reply = try subscribe(stopIds: [], health: true)
        let id = reply.subscription
        defer {
            // The subscription is this wait's: it ends with it, and nothing it queued is left for the caller.
            try? unsubscribe(id)
            heldNotifications.removeAll { (try? PushNotification($0))?.subscription == id }
        }
        guard let first = reply.health else { throw .unexpectedAnswer("subscribe {health: true} answered no health") }
        var health = Reply(first, json: reply.json[Answer.Subscribed.CodingKeys.health.rawValue] ?? .null)
        if let never = Self.neverLoads(health, target) { throw .stillWaiting(never) }
        while true {
            let pending = Self.pending(health, target)
            if pending.isEmpty { return health }
            let left = deadline - ContinuousClock.now
            let notification: PushNotification
            do throws(ClientError) {
                guard left > .zero else { throw .timedOut }
                notification = try nextNotification(timeout: left)
            } catch .timedOut {
                throw .stillWaiting(Self.waiting(for: pending, after: timeout))
            }
            if case .healthChanged(let change) = notification, change.subscription == id {
                health = Reply(change.health, json: change.json[Answer.HealthChanged.CodingKeys.health.rawValue] ?? .null)
            }
        }
    }

    /// The line a wait answers at once when `target` is one cache the daemon has no source for
    /// (it never loads); nil when there is something to wait for (`all` waits for those it has).
    static func neverLoads(_ health: Reply<Answer.Health>, _ target: LoadTarget) -> String? {
        guard target != .all, let unset = target.caches.first(where: { !($0.entry(health.value)?.configured ?? false) }) else { return nil }
        return "\(unset.name) is not configured: the daemon has no --\(unset.name)-url, so it never loads"
    }

    /// The caches of `target` that have a source and have not loaded yet, by name.
    static func pending(_ health: Reply<Answer.Health>, _ target: LoadTarget) -> [(name: String, entry: Answer.CacheHealth)] {
        target.caches.compactMap { cache in cache.entry(health.value).map { (cache.name, $0) } }.filter { $0.entry.configured && !$0.entry.loaded }
    }

    /// `still waiting after 5 s for alerts from http://… (last error: HTTP 503 Service Unavailable)`.
    static func waiting(for caches: [(name: String, entry: Answer.CacheHealth)], after timeout: Duration) -> String {
        let each = caches.map { cache, entry in
            let source = entry.source.value.map { " from \($0)" } ?? ""
            let error = entry.lastError.value.map { "last error: \($0)" } ?? "no error yet: the first fetch is under way"
            return "\(cache)\(source) (\(error))"
        }
        return "still waiting after \(Self.seconds(timeout)) for \(each.joined(separator: " and "))"
    }

    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.milliseconds
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }
}

extension Duration {
    /// Whole milliseconds, rounded down.
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
