import StopSheetCore
import Testing
@testable import StopSheetDaemon

/// The second URL read beside a cache's own (`CompanionSource`): the stations' `--topology-url`,
/// the lift inventory. Each round asks the companion with its own validators (a conditional GET),
/// a new companion fetches the main body whole, a failure before any fetch fails the round only
/// when the companion is required.
@Suite struct CompanionSourceTests {
    /// A source answering from a script, recording the validators each fetch sent.
    final class Scripted: Source, @unchecked Sendable {
        let url: String
        var answers: [Result<Fetched, FetchFailure>]
        var sent: [CacheValidators?] = []

        init(_ url: String, _ answers: [Result<Fetched, FetchFailure>]) {
            self.url = url
            self.answers = answers
        }

        func fetch(validators: CacheValidators?, stop: StopFlag) -> Result<Fetched, FetchFailure> {
            sent.append(validators)
            return answers.removeFirst()
        }
    }

    static func body(_ text: String, etag: String) -> Result<Fetched, FetchFailure> {
        .success(.body(Array(text.utf8), validators: CacheValidators(etag: etag), httpStatus: 200))
    }

    static func companion(_ fetched: Result<Fetched, FetchFailure>) -> CompanionFetch? {
        switch fetched {
        case .success(.body(_, _, _, let companion, _)), .success(.notModified(_, let companion, _)): companion
        case .failure: nil
        }
    }

    @Test func theTopologyIsAskedByItsOwnConditionalGET() {
        let stations = Scripted("http://stations", [Self.body("stops", etag: "s1"), .success(.notModified(httpStatus: 304)), Self.body("stops", etag: "s1")])
        let map = Scripted("http://map", [Self.body("zip", etag: "m1"), .success(.notModified(httpStatus: 304)), Self.body("zip2", etag: "m2")])
        let source = CompanionSource(main: stations, companion: map, named: "topology", required: false)
        let first = source.fetch(validators: nil)
        guard case .body(let bytes)? = Self.companion(first) else { Issue.record("no map body: \(first)"); return }
        #expect(bytes == Array("zip".utf8))
        // The map's own validators, whatever the stations'.
        let second = source.fetch(validators: CacheValidators(etag: "s1"))
        guard case .unchanged? = Self.companion(second) else { Issue.record("the map not unchanged: \(second)"); return }
        #expect(map.sent == [nil, CacheValidators(etag: "m1")])
        #expect(stations.sent == [nil, CacheValidators(etag: "s1")])
        // A new map fetches the stations whole, to be read against it.
        _ = source.fetch(validators: CacheValidators(etag: "s1"))
        #expect(map.sent.last == CacheValidators(etag: "m1") && stations.sent.last == .some(nil))
    }

    @Test func aTopologyNeverFetchedDoesNotFailTheStations() {
        let failure = FetchFailure("HTTP 503", httpStatus: 503)
        let optional = CompanionSource(main: Scripted("http://stations", [Self.body("stops", etag: "s1")]),
                                       companion: Scripted("http://map", [.failure(failure)]), named: "topology", required: false)
        let round = optional.fetch(validators: nil)
        guard case .failed(let why)? = Self.companion(round) else { Issue.record("not failed: \(round)"); return }
        #expect(why.message == "topology http://map: HTTP 503")
        let required = CompanionSource(main: Scripted("http://statuses", []), companion: Scripted("http://inventory", [.failure(failure)]),
                                       named: "inventory", required: true)
        guard case .failure(let message) = required.fetch(validators: nil) else { Issue.record("a required companion's failure must fail the round"); return }
        #expect(message.message == "inventory http://inventory: HTTP 503")
    }

    static func stationTable(_ fetched: Result<Fetched, FetchFailure>) -> CompanionFetch? {
        switch fetched {
        case .success(.body(_, _, _, _, let table)), .success(.notModified(_, _, let table)): table
        case .failure: nil
        }
    }

    /// The station table is never required, even beside a required inventory: never fetched, it
    /// is `.failed` and the round goes on; once fetched, it is asked with its own validators and
    /// a 304 keeps it.
    @Test func aStationTableNeverFetchedDoesNotFailTheRound() {
        let table = Scripted("http://table", [.failure(FetchFailure("HTTP 503", httpStatus: 503)), Self.body("t", etag: "t1"),
                                              .success(.notModified(httpStatus: 304))])
        let statuses = Scripted("http://statuses", [Self.body("s", etag: "s1"), Self.body("s", etag: "s1"), .success(.notModified(httpStatus: 304))])
        let inventory = Scripted("http://inventory", [Self.body("i", etag: "i1"), .success(.notModified(httpStatus: 304)),
                                                      .success(.notModified(httpStatus: 304))])
        let source = CompanionSource(main: statuses, companion: inventory, named: "inventory", required: true, stationTable: table)
        let first = source.fetch(validators: nil)
        guard case .failed(let why)? = Self.stationTable(first) else { Issue.record("not failed: \(first)"); return }
        #expect(why.message == "station table http://table: HTTP 503")
        guard case .body(let bytes)? = Self.stationTable(source.fetch(validators: CacheValidators(etag: "s1"))) else {
            Issue.record("no station table body")
            return
        }
        #expect(bytes == Array("t".utf8))
        let third = source.fetch(validators: CacheValidators(etag: "s1"))
        guard case .unchanged? = Self.stationTable(third) else { Issue.record("the station table not unchanged: \(third)"); return }
        #expect(table.sent == [nil, nil, CacheValidators(etag: "t1")])
        // A new station table fetched the statuses whole; an unchanged one let them be asked conditionally.
        #expect(statuses.sent == [nil, nil, CacheValidators(etag: "s1")])
    }
}
