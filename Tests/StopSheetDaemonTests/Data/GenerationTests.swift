import Foundation
import StopSheetCore
import StopSheetProtocol
import Testing
@testable import StopSheetDaemon

/// One change of the store is one `Generation`: a refresh round's data and status are published
/// together, told to the hook once, and give subscribers at most one notification per stop.
/// Real refreshers on their own threads, reading a real file.
@Suite struct GenerationTests {
    static let alertsURL = "file://\(Fixtures.directory)/alerts_2015-02-14.DERIVED.json"
    static let directory = StationDirectory(platforms: try! StationsDecoder.decode(Fixtures.bytes("L_stops_2021.csv")))

    static let t0 = Instant(secondsSince1970: 1_790_000_000)

    /// A store with stations loaded and alerts never loaded yet, on a clock standing at `t0`.
    static func store() -> Store {
        let store = Store(alertsSource: alertsURL, stationsSource: "test:stations", clock: .fixed(t0), zones: .cta)
        store.commit(.stations, installing: .stations(directory), at: t0) { $0.loaded = true; $0.loadedAt = t0 }
        return store
    }

    /// Starts an alerts refresher on `store`, waits for a round that started after the call to
    /// end (at most 60 s), then stops it.
    static func refreshAlerts(_ store: Store) throws {
        let refresher = Refresher(cache: .alerts, source: try FileSource(url: alertsURL), interval: 3600, store: store)
        let thread = refresher.start()
        let done = DispatchSemaphore(value: 0)
        refresher.refreshNow { _ in done.signal() }
        let ended = done.wait(timeout: .now() + 60) == .success
        refresher.stop()
        #expect(thread.join(milliseconds: 60_000))
        if !ended { throw TestFailure("no refresh round ended within 60 s") }
    }

    /// What readiness waits for (`--notify-ready when-loaded`, `stopsheetctl wait`): the caches
    /// with a source that have not loaded yet; a cache without one (here the lift status) never.
    @Test func notYetLoadedIsTheConfiguredCachesStillToLoad() {
        let store = Store(alertsSource: Self.alertsURL, stationsSource: "test:stations", clock: .fixed(Self.t0), zones: .cta)
        #expect(store.current.notYetLoaded == [.alerts, .stations])
        store.commit(.stations, installing: .stations(Self.directory), at: Self.t0) { $0.loaded = true; $0.loadedAt = Self.t0 }
        #expect(store.current.notYetLoaded == [.alerts])
        store.commit(.alerts, installing: .alerts(DecodedAlerts(alerts: [])), at: Self.t0) { $0.loaded = true; $0.loadedAt = Self.t0 }
        #expect(store.current.notYetLoaded.isEmpty)
    }

    @Test func aRefreshRoundIsOneChangeCarryingItsDataAndItsStatusTogether() throws {
        let store = Self.store()
        let seen = Locked<[(old: Generation, new: Generation)]>([])
        store.onChange { old, new in seen.withLock { $0.append((old, new)) } }
        try Self.refreshAlerts(store)
        let changes = seen.withLock { $0 }
        let rounds = store.status(.alerts).refreshesSucceeded + store.status(.alerts).refreshesFailed
        #expect(rounds >= 1 && changes.count == rounds, "\(changes.count) changes for \(rounds) refresh rounds")
        for (index, change) in changes.enumerated() {
            let alerts = change.new.alerts
            #expect(alerts.loaded == (change.new.snapshot.alerts != nil), "change \(index): loaded \(alerts.loaded) beside alerts \(change.new.snapshot.alerts?.count ?? -1)")
            #expect(alerts.count == change.new.snapshot.liveAlerts.count && alerts.nextRefreshAt != nil && alerts.lastAttemptAt != nil, "change \(index): \(alerts)")
            #expect(index == 0 || change.old === changes[index - 1].new, "each change starts from the one before")
        }
        #expect(changes.first?.old.snapshot.alerts == nil && store.current === changes.last?.new)
    }

    /// A reload's changes (sources, stale-after limits, zones) are one generation: no reader
    /// sees a new source beside an old limit.
    @Test func aReloadIsOneGeneration() throws {
        let store = Self.store()
        let seen = Locked(0)
        store.onChange { _, _ in seen.withLock { $0 += 1 } }
        let versionBefore = store.version
        let newYork = TestZones.rules("America/New_York")
        let zones = try TimeZones(configured: newYork)
        store.reconfigure(sources: [.alerts: "file:///other/alerts.json", .stations: "file:///other/stops.csv"],
                          staleAfterSeconds: [.alerts: 7, .stations: 9], zones: zones)
        #expect(seen.withLock { $0 } == 1 && store.version == versionBefore + 1)
        let current = store.current
        #expect(current.alerts.source == "file:///other/alerts.json" && current.stations.source == "file:///other/stops.csv")
        #expect(current.alerts.staleAfterSeconds == 7 && current.stations.staleAfterSeconds == 9)
        #expect(current.zones == zones && current.encoded.zone == newYork)
        // The same again changes nothing, and publishes nothing.
        store.reconfigure(sources: [.alerts: "file:///other/alerts.json"], staleAfterSeconds: [:], zones: zones)
        #expect(seen.withLock { $0 } == 1)
    }

    /// A new `--refresh-spacing` reaches a caller already waiting out the old one.
    @Test func aReconfiguredSpacingServesACallerWaitingOutTheOldOne() throws {
        let store = Self.store()
        let source = try FileSource(url: Self.alertsURL)
        // The start's own round is the fetch the hour's spacing counts from: waited for, so that
        // the call below surely comes after it (a call made while it runs would wait the hour).
        let started = DispatchSemaphore(value: 0), second = DispatchSemaphore(value: 0)
        let refresher = Refresher(cache: .alerts, source: source, interval: 3600, store: store, spacingMilliseconds: 3_600_000,
                                  onRefreshed: { started.signal() })
        let thread = refresher.start()
        defer {
            refresher.stop()
            _ = thread.join(milliseconds: 60_000)
        }
        #expect(started.wait(timeout: .now() + 60) == .success, "the start's refresh")
        // Under the hour's spacing this one would wait an hour.
        refresher.refreshNow { _ in second.signal() }
        refresher.reconfigure(source: source, interval: 3600, spacingMilliseconds: 0)
        #expect(second.wait(timeout: .now() + 60) == .success, "the refresh asked for under the old spacing")
    }

    /// A thread of its own standing in for the serving loop: `run` hands it work and returns once
    /// the work is done, so a change is compared before the next one is made (the loop keeping up,
    /// the case where every change the store publishes becomes a comparison of its own).
    final class StandInLoop: @unchecked Sendable {
        private let work = Locked<[@Sendable () -> Void]>([])
        private let ready = DispatchSemaphore(value: 0)
        private var thread: PosixThread?

        init() { thread = PosixThread(name: "stand-in-loop") { [self] in serve() } }

        private func serve() {
            while true {
                ready.wait()
                let batch = work.withLock { batch in defer { batch = [] }; return batch }
                if batch.isEmpty { return }
                for item in batch { item() }
            }
        }

        func run(_ item: @escaping @Sendable () -> Void) {
            let done = DispatchSemaphore(value: 0)
            work.withLock { $0.append { item(); done.signal() } }
            ready.signal()
            done.wait()
        }

        /// Ends the thread (an empty wake-up) and joins it.
        func stop() -> Bool {
            ready.signal()
            return thread?.join(milliseconds: 60_000) ?? true
        }
    }

    @Test func aRefreshGivesAtMostOneNotificationPerWatchedStop() throws {
        let store = Self.store()
        let service = StopSheetService(store: store, refreshers: [], connections: { 0 }, clock: store.clock)
        let registry = SubscriptionRegistry(service: service, limits: SubscriptionLimits(), counters: SubscriptionCounters())
        let loop = StandInLoop()
        store.onChange { _, new in registry.storeChanged(to: new, post: loop.run) }
        let queue = Locked<StopSheetDaemon.NotificationQueue?>(nil)
        let subscribed = Locked(false)
        loop.run {
            var dispatcher = Dispatcher()
            registry.register(in: &dispatcher)
            let notifications = StopSheetDaemon.NotificationQueue {}
            let context = RPCContext(peer: PeerCredentials(pid: 1, uid: 0, gid: 0), notifications: notifications)
            let request = RPCRequest(id: .number("1"), method: "subscribe", params: ["stopIds": ["40380", "40990"], "health": true])
            if case .result = dispatcher.reply(to: request, context: context) { subscribed.withLock { $0 = true } }
            queue.withLock { $0 = notifications }
        }
        guard subscribed.withLock({ $0 }) else { throw TestFailure("subscribe failed") }

        try Self.refreshAlerts(store)
        let written = Locked<[UInt8]>([])
        loop.run { written.withLock { out in _ = queue.withLock { $0 }!.write(into: &out, outputLimit: Int.max) } }
        #expect(loop.stop())
        let out = written.withLock { $0 }
        let lines = try String(decoding: out, as: UTF8.self).split(separator: "\n").map { try JSONParser.parse(String($0)) }
        let sheets = lines.filter { $0["method"] == "stopSheetChanged" }
        #expect(Set(sheets.compactMap { $0["params"]?["stopId"]?.stringValue }) == ["40380", "40990"], "\(lines.map(\.encodedString))")
        for line in sheets {
            #expect(line["params"]?["sheet"]?["data"]?["alerts"]?["loaded"] == true, "the new alerts with their status: \(line.encodedString.prefix(2000))")
        }
        // `seq` counts the subscription's changes, sent or coalesced: one per line means none was
        // replaced by a second notification of the same refresh.
        #expect(lines.compactMap { $0["params"]?["seq"]?.intValue }.sorted() == Array(1...max(1, lines.count)), "\(lines.map { $0["params"]?["seq"] ?? .null })")
        let health = lines.filter { $0["method"] == "healthChanged" }
        #expect(health.count == 1 && health.first?["params"]?["health"]?["status"] == "ready", "\(health.map(\.encodedString))")
    }
}

