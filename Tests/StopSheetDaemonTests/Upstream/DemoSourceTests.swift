import StopSheetCore
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

@Suite struct DemoSourceTests {
    /// The capture's own moment, 2015-02-14 14:35 Chicago.
    let captured = TestZones.chicago.instant(.init(year: 2015, month: 2, day: 14, hour: 14, minute: 35))

    func alerts(rebasedTo startup: Instant) throws -> [Alert] {
        guard case .success(.body(let bytes, _, _, _, _)) = DemoSource(.alerts, rebasedTo: startup, chicago: TestZones.chicago, clock: .fixed(startup)).fetch(validators: nil) else {
            throw TestFailure("demo alerts did not load")
        }
        return try AlertsDecoder.decode(bytes, chicago: TestZones.chicago)
    }

    @Test func rebasingKeepsEachAlertsKindAtStartUp() throws {
        let original = try alerts(rebasedTo: captured)
        let startup = TestZones.chicago.instant(.init(year: 2026, month: 11, day: 29, hour: 9, minute: 12, second: 7))
        let rebased = try alerts(rebasedTo: startup)
        #expect(rebased.count == 17)
        #expect(rebased.map(\.id) == original.map(\.id))
        #expect(rebased.map { $0.kind(at: startup) } == original.map { $0.kind(at: captured) })
        #expect(Set(rebased.compactMap { $0.kind(at: startup) }) == [.active, .planned])
        let shift = startup.seconds(since: captured)
        for (new, old) in zip(rebased, original) {
            #expect(new.start?.secondsSince1970 == old.start.map { $0.secondsSince1970 + shift })
        }
    }

    /// The capture's `TimeStamp` is the moment of each fetch, as a live feed stamps what it
    /// serves, while its alerts keep their times rebased to start-up: the demo never reads as a
    /// feed made long ago, however long it runs.
    @Test func theTimeStampIsEachFetchsMoment() throws {
        let startup = TestZones.chicago.instant(.init(year: 2026, month: 11, day: 29, hour: 9, minute: 12, second: 7))
        let clock = ManualClock(startup)
        let source = DemoSource(.alerts, rebasedTo: startup, chicago: TestZones.chicago, clock: clock.clock)
        func fetched() throws -> DecodedAlerts {
            guard case .success(.body(let bytes, _, _, _, _)) = source.fetch(validators: nil) else { throw TestFailure("demo alerts did not load") }
            return try AlertsDecoder.decodeFeed(bytes, chicago: TestZones.chicago)
        }
        let first = try fetched()
        #expect(first.producedAt == startup)
        clock.set(startup.adding(seconds: 86_400))
        let later = try fetched()
        #expect(later.producedAt == startup.adding(seconds: 86_400))
        #expect(later.alerts == first.alerts, "the alerts stay rebased to start-up")
    }

    @Test func demoStationsAreTheRealStops() throws {
        guard case .success(.body(let bytes, _, _, _, _)) = DemoSource(.stations, rebasedTo: captured, chicago: TestZones.chicago, clock: .fixed(captured)).fetch(validators: nil) else {
            throw TestFailure("demo stations did not load")
        }
        let directory = StationDirectory(platforms: try StationsDecoder.decode(bytes))
        #expect(directory.count == 143)
        #expect(directory.station(for: "40380")?.name == "Clark/Lake")
    }

    /// What the binary carries (CDemoData) is the files in Demo/, byte for byte, and those are the
    /// real fixtures the rest of the tests read: the stops as served, the alerts as decoded once
    /// rebased to the capture's own moment.
    @Test func theEmbeddedBytesAreTheDemoFiles() throws {
        let demo = Fixtures.packageRoot + "/Sources/StopSheetDaemon/Demo/"
        guard case .success(.body(let stops, _, _, _, _)) = DemoSource(.stations, rebasedTo: captured, chicago: TestZones.chicago, clock: .fixed(captured)).fetch(validators: nil) else {
            throw TestFailure("demo stations did not load")
        }
        #expect(stops == Fixtures.bytes(atPath: demo + "stops.csv"))
        #expect(stops == Fixtures.bytes("L_stops_2021.csv"))
        #expect(Fixtures.bytes(atPath: demo + "alerts.json") == Fixtures.bytes("alerts_2015-02-14.DERIVED.json"))
        #expect(try alerts(rebasedTo: captured) == AlertsDecoder.decode(Fixtures.bytes("alerts_2015-02-14.DERIVED.json"), chicago: TestZones.chicago))
    }

    /// Only `EventStart`, `EventEnd` and `TimeStamp` move, each by start-up less the capture's
    /// `TimeStamp`; any other member keeps its text, a time or not.
    @Test func rebasingMovesTheThreeTimesAlone() throws {
        let capture = #"{"CTAAlerts":{"TimeStamp":"2015-02-14T14:35:00","Alert":[{"EventStart":"2015-02-14T10:00:00","EventEnd":"2015-02-15T10:00:00","Other":"2015-02-14T10:00:00"}]}}"#
        let startup = TestZones.chicago.instant(.init(year: 2026, month: 9, day: 30, hour: 16, minute: 35))
        let rebased = try #require(DemoSource.rebase(Array(capture.utf8), to: startup, chicago: TestZones.chicago))
        #expect(rebased["CTAAlerts"]?["TimeStamp"] == "2026-09-30T16:35:00")
        let alert = rebased["CTAAlerts"]?["Alert"]?.arrayValue?.first
        #expect(alert?["EventStart"] == "2026-09-30T12:00:00" && alert?["EventEnd"] == "2026-10-01T12:00:00" && alert?["Other"] == "2015-02-14T10:00:00",
                "\(String(describing: alert))")
    }
}
