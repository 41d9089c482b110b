import Testing
@testable import StopSheetCore
import StopSheetTestSupport

/// Issue 50: never "available" by default at a station without a map, on CTA's real station data
/// (`L_stops_2021.csv`), CTA's real alerts body of 2026-04-26 (six `Elevator Status` alerts, as
/// they are) and HANDMADE alerts for the prose families the capture lacks.
@Suite struct StepFreeWithoutMapTests {
    static let stations = StationDirectory(platforms: try! StationsDecoder.decode(Fixtures.bytes("L_stops_2021.csv")))
    /// The capture's moment, 2026-04-26 10:56 Chicago time; the hand-made file's too.
    static let captureTime = TestZones.chicago.instant(.init(year: 2026, month: 4, day: 26, hour: 10, minute: 56))
    static let real = try! AlertsDecoder.decode(Fixtures.bytes("alerts_2026-04-26.json"), chicago: TestZones.chicago)
    static let handMade = try! AlertsDecoder.decode(Fixtures.bytes("alerts_elevator_prose.HANDMADE.json"), chicago: TestZones.chicago)

    /// The station's verdict with only the alert `id` of `alerts` standing (each case alone).
    static func now(_ stationID: String, alert id: String? = nil, of alerts: [Alert] = handMade) throws -> StepFreeNow {
        let station = try #require(stations.station(for: stationID))
        let standing = try id.map { id in [try #require(alerts.first { $0.id == id })] } ?? []
        return StepFreeNow(station: station, topology: nil, applying: standing, now: captureTime)
    }

    static func access(_ now: StepFreeNow) -> [String: [Bool?]] {
        Dictionary(uniqueKeysWithValues: now.platforms.map { ($0.stopID, [$0.entry, $0.exit]) })
    }

    /// With no outage, each platform's reported `ADA` is its entry and exit.
    @Test func withNoOutageEachPlatformIsItsReportedValue() throws {
        let clarkLake = try Self.now("40380")
        #expect(clarkLake.basis == .stations && clarkLake.complete && clarkLake.stepFree == .available)
        #expect(Self.access(clarkLake) == ["30374": [true, true], "30375": [true, true], "30074": [true, true], "30075": [true, true]])
        // Belmont (Blue Line): both platforms not step-free in the data.
        let belmontBlue = try Self.now("40060")
        #expect(belmontBlue.stepFree == .none && belmontBlue.complete)
        #expect(belmontBlue.platforms.allSatisfy { $0.entry == false && $0.exit == false })
        // Every station of the data: entry and exit are the platform's value, the verdict follows.
        for station in Self.stations.stations {
            let now = StepFreeNow(station: station, topology: nil, applying: [], now: Self.captureTime)
            #expect(zip(now.platforms, station.platforms).allSatisfy { $0.entry == $1.stepFree && $0.exit == $1.stepFree }, "\(station.id)")
            let values = station.platforms.map(\.stepFree)
            let expected: StepFreeNow.Verdict = values.allSatisfy { $0 == true } ? .available : values.allSatisfy { $0 == false } ? .none
                : !values.contains(true) ? .unknown : .partial
            #expect(now.stepFree == expected, "\(station.id)")
        }
    }

    /// The first worked case: a vague elevator alert at Clark/Lake could be any of its
    /// elevators: all four platforms `null`, `unknown`, not complete.
    @Test func aVagueAlertAtClarkLakeMakesEveryPlatformUnknown() throws {
        let now = try Self.now("40380", alert: "90001")
        #expect(Self.access(now) == ["30374": [nil, nil], "30375": [nil, nil], "30074": [nil, nil], "30075": [nil, nil]])
        #expect(now.stepFree == .unknown && !now.complete)
        #expect(now.outages.map(\.alertID) == ["90001"])
    }

    /// A `false` stays `false` under any outage: no outage gives a step-free way back.
    @Test func aFalseStaysFalse() throws {
        let station = Station(id: "S", name: "Mixed", platforms: [
            Platform(stopID: "A", stationID: "S", stationName: "Mixed", routes: [.red], stepFree: true),
            Platform(stopID: "B", stationID: "S", stationName: "Mixed", routes: [.red], stepFree: false),
            Platform(stopID: "C", stationID: "S", stationName: "Mixed", routes: [.red], stepFree: nil)])
        let quiet = StepFreeNow(station: station, topology: nil, outages: [])
        #expect(quiet.stepFree == .partial && quiet.complete)
        let alert = Alert(id: "x", kindSource: .fromTime, headline: "Elevator at Mixed Temporarily Out-of-Service", description: "",
                          scopes: [.station("S")], details: .init(impact: "Elevator Status"))
        let out = StepFreeNow(station: station, topology: nil, outages: [try #require(AlertOutage(alert))])
        #expect(out.platforms.map(\.entry) == [nil, false, nil] && out.platforms.map(\.exit) == [nil, false, nil])
        #expect(out.stepFree == .unknown && !out.complete)
    }

    /// The real capture: no station with an elevator alert standing says `available`.
    @Test func noStationOfTheRealCaptureIsAvailableWithAnElevatorOut() throws {
        let snapshot = Snapshot.build(stations: Self.stations, alerts: Self.real, now: Self.captureTime)
        let outages = Self.real.filter { AlertOutage($0)?.facility == .elevator }
        #expect(outages.map(\.id) == ["111489", "114461", "114527", "114530", "114544", "114549"])
        for station in Self.stations.stations {
            let now = snapshot.stopSheet(for: station).accessibilityButton.now
            let out = now.outages.filter { $0.facility == .elevator }
            if out.isEmpty { continue }
            #expect(now.stepFree != .available && !now.complete, "\(station.id)")
        }
    }
}
