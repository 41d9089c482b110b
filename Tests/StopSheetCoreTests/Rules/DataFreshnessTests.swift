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

    /// The feed's own time of making counts: data fetched a second ago that says it was made
    /// over the limit ago is stale; a time of making ahead of now (a clock ahead of ours) is not.
    @Test func staleWhenTheFeedSaysItWasMadeOverTheLimitAgo() {
        func made(_ secondsAgo: Int64) -> DataFreshness {
            DataFreshness(lastGoodLoad: loadedAt, producedAt: loadedAt.adding(seconds: -secondsAgo), now: loadedAt.adding(seconds: 1), staleAfterSeconds: 600)
        }
        #expect(!made(599).stale && made(599).ageSeconds == 1)
        #expect(made(600).stale, "made 601 s before now")
        #expect(!made(-3600).stale)
        #expect(made(600).producedAt == loadedAt.adding(seconds: -600))
        #expect(DataFreshness(lastGoodLoad: nil, producedAt: loadedAt, now: loadedAt.adding(seconds: 9_999), staleAfterSeconds: 600)
            == DataFreshness(lastGoodLoad: nil, now: loadedAt, staleAfterSeconds: 600), "nothing loaded: no time of making, not stale")
    }
}
