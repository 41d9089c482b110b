import StopSheetCore
import Testing
@testable import StopSheetDaemon

/// What push compares (`AnswerComparison`): a watched stop's sheet changes when its bytes do or
/// when a cache's `loaded` or `stale` flips, with the same bytes (the `data` member is spliced in
/// per answer); never by age alone; and an unknown stop, which has no sheet, never by `data`.
@Suite struct AnswerComparisonTests {
    static let t0 = Instant(secondsSince1970: 1_790_000_000)
    static let directory = StationDirectory(platforms: try! StationsDecoder.decode(Fixtures.bytes("L_stops_2021.csv")))

    @Test func aFlipOfStaleIsAChangeOfEveryKnownWatchedStopAndAgeAloneIsNone() throws {
        let store = Store(alertsSource: "test:alerts", stationsSource: "test:stations", clock: .fixed(Self.t0), zones: .cta)
        store.applyStaleAfter(Config())
        store.install(stations: Self.directory, at: Self.t0)
        store.updateStatus(.stations) { $0.loaded = true; $0.loadedAt = Self.t0 }
        let generation = store.current
        let staleAfter = generation.status(.stations).staleAfterSeconds
        func data(_ seconds: Int64) -> SheetData { generation.sheetData(now: Self.t0.adding(seconds: seconds)) }
        #expect(!data(staleAfter).stations.stale && data(staleAfter + 1).stations.stale, "the rig: stations turn stale after \(staleAfter) s")

        let answer: (String, EncodedSnapshot) -> EncodedSheet? = { stopID, snapshot in snapshot.stopSheet(stopID: stopID) }
        var comparison = AnswerComparison(generation, data: data(0))
        for stopID in ["40380", "40990", "99999"] { comparison.watch(stopID, answer: answer(stopID, generation.encoded), by: "s1") }
        #expect(comparison.watched["40380"]?.answer != nil && comparison.watched["99999"]?.answer == nil, "two stations and a stop unknown")

        // Older, still fresh: the same sheets, nothing to tell.
        #expect(comparison.compare(to: generation, data: data(staleAfter), answer: answer).stops.isEmpty)
        // Stale now: the same bytes, but each known sheet's data says otherwise; not the unknown stop's.
        #expect(comparison.compare(to: generation, data: data(staleAfter + 1), answer: answer).stops == ["40380", "40990"])
        // Older still, stale as before: nothing.
        #expect(comparison.compare(to: generation, data: data(staleAfter + 60), answer: answer).stops.isEmpty)
        // A fresh load: fresh again, told again.
        store.updateStatus(.stations) { $0.loadedAt = Self.t0.adding(seconds: staleAfter + 60) }
        let reloaded = store.current
        #expect(comparison.compare(to: reloaded, data: reloaded.sheetData(now: Self.t0.adding(seconds: staleAfter + 60)), answer: answer).stops == ["40380", "40990"])
    }
}
