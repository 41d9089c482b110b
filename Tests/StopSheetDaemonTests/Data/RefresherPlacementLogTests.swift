import Foundation
import StopSheetCore
import Testing
@testable import StopSheetDaemon

/// The placement line (`facility_placement`) follows a stations or lift-status load, once both
/// are in, and never an alerts load: the alerts move no unit. Real refreshers, the log's sink
/// swapped for one that keeps what it is given (no other unit test sets the sink), entries told
/// apart by their refresher's own URL.
@Suite(.serialized) struct RefresherPlacementLogTests {
    final class Kept: LogSink, @unchecked Sendable {
        let entries = Locked<[LogEntry]>([])
        func write(_ entry: LogEntry) { entries.withLock { $0.append(entry) } }

        func events(from url: String) -> [String] {
            entries.withLock { entries in
                entries.filter { $0.fields.contains { $0 == ("UPSTREAM_URL", url) } }
                    .compactMap { entry in entry.fields.first { $0.0 == "STOPSHEET_EVENT" }?.1 }
            }
        }
    }

    /// One round of a refresher of `cache` on `store`, reading `bytes` from `url`.
    func round(_ cache: CacheName, _ bytes: [UInt8], from url: String, on store: Store) throws {
        let done = DispatchSemaphore(value: 0)
        let source = RefresherScheduleTests.ScriptedSource([.success(.body(bytes, validators: CacheValidators(), httpStatus: 200))], url: url)
        let refresher = Refresher(cache: cache, source: source, interval: 3600, store: store, spacingMilliseconds: 0, onRefreshed: { done.signal() })
        let thread = refresher.start()
        defer {
            refresher.stop()
            _ = thread.join(milliseconds: 60_000)
        }
        try #require(done.wait(timeout: .now() + 60) == .success)
    }

    @Test func aStationsLoadLogsThePlacementAndAnAlertsLoadDoesNot() throws {
        let kept = Kept()
        Log.configure(level: .info, sink: kept)
        defer { Log.configure(level: Config().logLevel, sink: StderrLogSink()) }
        let (_, store, _) = try FacilitiesStaleAfterReloadTests.loaded(staleAfter: 86_400, alertsSource: "test:alerts")
        let run = UUID().uuidString
        try round(.stations, Fixtures.bytes("facilities/gtfs/stops.txt"), from: "test:stations-\(run)", on: store)
        try round(.alerts, Fixtures.bytes("alerts_2015-02-14.DERIVED.json"), from: "test:alerts-\(run)", on: store)
        #expect(kept.events(from: "test:stations-\(run)").contains("facility_placement"), "\(kept.events(from: "test:stations-\(run)"))")
        #expect(!kept.events(from: "test:alerts-\(run)").contains("facility_placement"), "\(kept.events(from: "test:alerts-\(run)"))")
        #expect(kept.events(from: "test:alerts-\(run)").contains("refresh"))
    }
}
