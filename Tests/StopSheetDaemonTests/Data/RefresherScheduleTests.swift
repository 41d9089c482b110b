import Foundation
import StopSheetCore
import Testing
@testable import StopSheetDaemon

/// When a refresher's next round is due, as its status says (`nextRefreshAt`, from the store's
/// clock, which stands still here): after a good round, the interval give or take 5 % of jitter;
/// after failures in a row, 1 s, 2 s, 4 s …; and a 304 with nothing loaded is a failure that
/// drops the validators. A real refresher on its own thread, fed by a source in memory.
@Suite struct RefresherScheduleTests {
    /// Answers each fetch with the next of `answers` (the last one again once they run out).
    final class ScriptedSource: Source, @unchecked Sendable {
        let url: String
        private let answers: Locked<[Result<Fetched, FetchFailure>]>
        let validatorsSeen = Locked<[CacheValidators?]>([])

        init(_ answers: [Result<Fetched, FetchFailure>], url: String = "test:scripted") { (self.answers, self.url) = (Locked(answers), url) }

        var fetches: Int { validatorsSeen.withLock { $0.count } }

        func fetch(validators: CacheValidators?, stop: StopFlag) -> Result<Fetched, FetchFailure> {
            validatorsSeen.withLock { $0.append(validators) }
            return answers.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
        }
    }

    static let alerts = Result<Fetched, FetchFailure>.success(.body(try! Fixtures.bytes("alerts_2015-02-14.DERIVED.json"),
                                                                    validators: CacheValidators(etag: "\"e1\"", lastModified: nil), httpStatus: 200))

    /// Runs the refresher through `rounds` rounds (the start's, then one asked for after each)
    /// and gives the status after each.
    func rounds(_ source: ScriptedSource, _ rounds: Int, interval: Double = 3600) throws -> [CacheStatus] {
        let store = GenerationTests.store()
        let done = DispatchSemaphore(value: 0)
        let refresher = Refresher(cache: .alerts, source: source, interval: interval, store: store, spacingMilliseconds: 0,
                                  onRefreshed: { done.signal() })
        let thread = refresher.start()
        defer {
            refresher.stop()
            _ = thread.join(milliseconds: 60_000)
        }
        var seen: [CacheStatus] = []
        for round in 0..<rounds {
            if round > 0 { refresher.refreshNow { _ in } }
            try #require(done.wait(timeout: .now() + 60) == .success, "round \(round)")
            seen.append(store.status(.alerts))
        }
        return seen
    }

    func wait(_ status: CacheStatus) throws -> Int64 {
        try #require(status.nextRefreshAt).secondsSince1970 - #require(status.lastAttemptAt).secondsSince1970
    }

    @Test func aGoodRoundWaitsTheIntervalWithJitter() throws {
        let status = try #require(try rounds(ScriptedSource([Self.alerts]), 1).first)
        #expect(status.loaded && status.consecutiveFailures == 0 && status.refreshesSucceeded == 1)
        #expect((3420...3780).contains(try wait(status)), "\(status)")
    }

    @Test func failuresInARowBackOffFromOneSecond() throws {
        let failed = Result<Fetched, FetchFailure>.failure(FetchFailure("HTTP 500 Internal Server Error", httpStatus: 500))
        let statuses = try rounds(ScriptedSource([failed]), 4)
        #expect(statuses.map(\.consecutiveFailures) == [1, 2, 3, 4])
        #expect(try statuses.map(wait) == [1, 2, 4, 8])
        #expect(statuses.allSatisfy { !$0.loaded && $0.lastError == "HTTP 500 Internal Server Error" && $0.lastHTTPStatus == 500 })
        // The next good round starts the count again.
        let recovered = try rounds(ScriptedSource([failed, failed, Self.alerts]), 3)
        #expect(recovered.map(\.consecutiveFailures) == [1, 2, 0] && recovered.map(\.refreshesFailed) == [1, 2, 2])
        #expect((3420...3780).contains(try wait(recovered[2])))
    }

    /// A 304 answers validators the cache sent; with no data loaded there is nothing it can mean,
    /// so the round fails and the next asks without validators.
    @Test func aNotModifiedWithNothingLoadedIsAFailure() throws {
        let source = ScriptedSource([.success(.notModified(httpStatus: 304)), Self.alerts, .success(.notModified(httpStatus: 304))])
        let statuses = try rounds(source, 3)
        #expect(statuses[0].lastError == "alerts: 304 Not Modified with no data loaded" && !statuses[0].loaded)
        #expect(statuses[1].loaded && statuses[1].consecutiveFailures == 0)
        #expect(statuses[2].loaded && statuses[2].consecutiveFailures == 0 && statuses[2].lastHTTPStatus == 304)
        #expect(source.validatorsSeen.withLock { $0 } == [nil, nil, CacheValidators(etag: "\"e1\"", lastModified: nil)])
    }

    /// An upstream's Retry-After holds its URL: a refresh asked for inside it is answered at
    /// once without a fetch, also after a reload that keeps the URL; a reload to another URL
    /// lifts it.
    @Test func aRetryAfterHoldsTheURLAcrossAReloadThatKeepsIt() throws {
        let limited = Result<Fetched, FetchFailure>.failure(FetchFailure("HTTP 429 Too Many Requests, retry after 3600 s", httpStatus: 429,
                                                                         retryAfterSeconds: 3600))
        let first = ScriptedSource([limited], url: "test:a")
        let store = GenerationTests.store()
        let rounds = DispatchSemaphore(value: 0)
        let refresher = Refresher(cache: .alerts, source: first, interval: 1, store: store, spacingMilliseconds: 0, onRefreshed: { rounds.signal() })
        let thread = refresher.start()
        defer {
            refresher.stop()
            _ = thread.join(milliseconds: 60_000)
        }
        try #require(rounds.wait(timeout: .now() + 60) == .success, "the start's round")
        func refreshAnsweredAtOnce() -> Bool {
            let answered = DispatchSemaphore(value: 0)
            refresher.refreshNow { _ in answered.signal() }
            return answered.wait(timeout: .now() + 60) == .success
        }
        #expect(refreshAnsweredAtOnce() && first.fetches == 1)
        let sameURL = ScriptedSource([Self.alerts], url: "test:a")
        refresher.reconfigure(source: sameURL, interval: 1, spacingMilliseconds: 0)
        #expect(refreshAnsweredAtOnce() && sameURL.fetches == 0, "the same URL, still held")
        let otherURL = ScriptedSource([Self.alerts], url: "test:b")
        refresher.reconfigure(source: otherURL, interval: 3600, spacingMilliseconds: 0)
        refresher.refreshNow { _ in }
        try #require(rounds.wait(timeout: .now() + 60) == .success, "the other URL's round")
        #expect(otherURL.fetches == 1 && store.status(.alerts).loaded)
    }
}
