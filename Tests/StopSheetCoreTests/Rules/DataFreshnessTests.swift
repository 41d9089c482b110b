import Testing
@testable import StopSheetCore

/// `DataFreshness` with an injected clock: no real clock in the core.
@Suite struct DataFreshnessTests {
    let loadedAt = Instant(1_000_000)

    @Test func notLoadedIsNeitherAgedNorStale() {
        let freshness = DataFreshness(lastGoodLoad: nil, now: loadedAt.adding(seconds: 99_999), staleAfterSeconds: 600)
        #expect(freshness == DataFreshness(lastGoodLoad: nil, now: loadedAt, staleAfterSeconds: 1))
        #expect(!freshness.loaded && freshness.ageSeconds == nil && !freshness.stale)
    }

    @Test func staleOnceOlderThanTheLimit() {
        func at(_ seconds: Int64) -> DataFreshness { DataFreshness(lastGoodLoad: loadedAt, now: loadedAt.adding(seconds: seconds), staleAfterSeconds: 600) }
        #expect(at(0).ageSeconds == 0 && !at(0).stale && at(0).loaded)
        #expect(at(600).ageSeconds == 600 && !at(600).stale)
        #expect(at(601).ageSeconds == 601 && at(601).stale)
        // A wall clock stepped back is age 0, not a negative age.
        #expect(at(-30).ageSeconds == 0 && !at(-30).stale)
    }

    @Test func sameStateIgnoresTheAge() {
        func at(_ seconds: Int64) -> DataFreshness { DataFreshness(lastGoodLoad: loadedAt, now: loadedAt.adding(seconds: seconds), staleAfterSeconds: 600) }
        #expect(at(1).sameState(as: at(599)))
        #expect(!at(599).sameState(as: at(601)))
        #expect(!at(1).sameState(as: DataFreshness(lastGoodLoad: nil, now: loadedAt, staleAfterSeconds: 600)))
    }
}
