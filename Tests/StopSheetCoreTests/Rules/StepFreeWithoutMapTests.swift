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

    // MARK: Alerts' prose narrowed to platforms (item 2)

    /// Each case: the alert, its station, how it is placed, and each platform's entry and exit.
    struct Case: Sendable, CustomTestStringConvertible {
        var alert: String, station: String, placedBy: OutagePlacementRule?, values: [String: [Bool?]], stepFree: StepFreeNow.Verdict
        var testDescription: String { alert }
    }

    static let cases: [Case] = [
        // The real capture, as it is.
        Case(alert: "111489", station: "41480", placedBy: .direction, values: ["30284": [nil, nil], "30283": [true, true]], stepFree: .partial),
        Case(alert: "114461", station: "40560", placedBy: nil, values: ["30109": [nil, nil], "30110": [nil, nil]], stepFree: .unknown),
        Case(alert: "114527", station: "40390", placedBy: nil, values: ["30076": [nil, nil], "30077": [nil, nil]], stepFree: .unknown),
        Case(alert: "114530", station: "40330", placedBy: .direction, values: ["30065": [nil, nil], "30064": [true, true]], stepFree: .partial),
        Case(alert: "114544", station: "40050", placedBy: .direction, values: ["30010": [nil, nil], "30011": [true, true]], stepFree: .partial),
        Case(alert: "114549", station: "40930", placedBy: nil, values: ["30181": [nil, nil], "30182": [nil, nil]], stepFree: .unknown),
        // HANDMADE, one per family the capture lacks.
        Case(alert: "90001", station: "40380", placedBy: nil,
             values: ["30374": [nil, nil], "30375": [nil, nil], "30074": [nil, nil], "30075": [nil, nil]], stepFree: .unknown),
        Case(alert: "90002", station: "41320", placedBy: .direction,
             values: ["30255": [nil, nil], "30257": [nil, nil], "30256": [true, true], "30258": [true, true]], stepFree: .partial),
        Case(alert: "90003", station: "41320", placedBy: .direction,
             values: ["30255": [true, true], "30257": [true, true], "30256": [nil, nil], "30258": [nil, nil]], stepFree: .partial),
        Case(alert: "90004", station: "41140", placedBy: .direction, values: ["30217": [true, nil], "30218": [true, true]], stepFree: .partial),
        Case(alert: "90005", station: "40380", placedBy: .line,
             values: ["30374": [true, true], "30375": [true, true], "30074": [nil, nil], "30075": [nil, nil]], stepFree: .partial),
        Case(alert: "90006", station: "40380", placedBy: .direction,
             values: ["30374": [nil, nil], "30375": [true, true], "30074": [true, true], "30075": [true, true]], stepFree: .partial),
        Case(alert: "90007", station: "41400", placedBy: nil,
             values: ["30080": [nil, nil], "30081": [nil, nil], "30269": [nil, nil], "30270": [nil, nil]], stepFree: .unknown),
        Case(alert: "90008", station: "40230", placedBy: nil, values: ["30044": [nil, nil], "30045": [nil, nil]], stepFree: .unknown),
        Case(alert: "90009", station: "41480", placedBy: nil, values: ["30284": [nil, nil], "30283": [nil, nil]], stepFree: .unknown),
        Case(alert: "90010", station: "41480", placedBy: .direction, values: ["30284": [nil, nil], "30283": [true, true]], stepFree: .partial),
        // Exit only at every platform: no platform is step-free both ways, and some value is
        // unsaid, so the verdict is unknown, not partial.
        Case(alert: "90011", station: "41690", placedBy: .direction, values: ["30382": [true, nil], "30381": [true, nil]], stepFree: .unknown),
    ]

    /// Every family on CTA's real station data: the worked case at Western (the
    /// Loop-bound platform `null`, the Kimball-bound `true`, `partial`), several directions at
    /// once, loose hyphens, exit only, a named line, a shared word, and the street, entrance,
    /// structure and vague alerts that touch every platform.
    @Test(arguments: cases) func eachAlertTouchesTheNamedPlatforms(_ expected: Case) throws {
        let alerts = expected.alert.hasPrefix("9") ? Self.handMade : Self.real
        let now = try Self.now(expected.station, alert: expected.alert, of: alerts)
        #expect(Self.access(now) == expected.values)
        #expect(now.stepFree == expected.stepFree && !now.complete)
        let outage = try #require(now.outages.first)
        #expect(outage.placedBy == expected.placedBy)
        let touched = expected.placedBy == nil ? [] : expected.values.filter { $0.value.contains(nil) }.keys.sorted()
        #expect(outage.platforms.sorted() == touched)
    }

    /// A platform's direction words are the station data's: its L stops name, or the headsigns
    /// of its GTFS trips; a new terminal in the data is read without a release.
    @Test func directionWordsComeFromTheStationData() throws {
        let belmont = try #require(Self.stations.station(for: "41320"))
        #expect(belmont.platforms.first { $0.stopID == "30257" }.map(PlatformPlacement.directionWords) == ["kimball", "linden"])
        let newTerminal = Platform(stopID: "X1", stationID: "X", stationName: "Somewhere", routes: [.red], stepFree: true,
                                   name: "Somewhere (Far Away-bound)", headsigns: ["Elsewhere Terminal"])
        #expect(PlatformPlacement.directionWords(of: newTerminal) == ["far", "away", "elsewhere", "terminal"])
        let other = Platform(stopID: "X2", stationID: "X", stationName: "Somewhere", routes: [.red], stepFree: true, name: "Somewhere (Home-bound)")
        let station = Station(id: "X", name: "Somewhere", platforms: [newTerminal, other])
        let alert = Alert(id: "n", kindSource: .fromTime, headline: "Elevator at Somewhere Temporarily Out-of-Service",
                          description: "The Elsewhere- bound platform elevator at Somewhere is temporarily out-of-service.",
                          scopes: [.station("X")], details: .init(impact: "Elevator Status"))
        let placed = PlatformPlacement.place(try #require(AlertOutage(alert)), at: station)
        #expect(placed == PlatformPlacement.Placed(rule: .direction, platforms: ["X1"], exitOnly: false))
    }

    /// A "…-bound" phrase runs back at most `maxPhraseWords` words, the first word of the text
    /// included: eight words make a direction, the ninth before "bound" is left out.
    @Test func aDirectionPhraseRunsBackEightWords() {
        func platform(_ name: String) -> Platform {
            Platform(stopID: "X1", stationID: "X", stationName: "Somewhere", routes: [.red], stepFree: true, name: name)
        }
        let eight = ["one", "two", "three", "four", "five", "six", "seven", "eight"]
        #expect(PlatformPlacement.directionWords(of: platform("Somewhere (" + eight.joined(separator: " ") + "-bound)")) == Set(eight))
        #expect(PlatformPlacement.directionWords(of: platform("Somewhere (zero " + eight.joined(separator: " ") + "-bound)")) == Set(eight))
    }

    /// The line rule reads a feed's own line names (GTFS `routes.txt`), each line by its own: at a
    /// station of two lines, each with a short name only, "the District Line platform" names the
    /// District's platform and not the other's.
    @Test func aLinePlatformIsNamedByItsOwnLinesName() throws {
        let district = RouteID("L1"), circle = RouteID("L2")
        let station = Station(id: "X", name: "Somewhere", platforms: [
            Platform(stopID: "X1", stationID: "X", stationName: "Somewhere", routes: [district], stepFree: true),
            Platform(stopID: "X2", stationID: "X", stationName: "Somewhere", routes: [circle], stepFree: true),
        ], lines: [Line(id: district, shortName: "District", routeType: 1), Line(id: circle, shortName: "Circle", routeType: 1)])
        func placed(_ description: String) throws -> PlatformPlacement.Placed? {
            let alert = Alert(id: "l", kindSource: .fromTime, headline: "Elevator at Somewhere Temporarily Out-of-Service",
                              description: description, scopes: [.station("X")], details: .init(impact: "Elevator Status"))
            return PlatformPlacement.place(try #require(AlertOutage(alert)), at: station)
        }
        #expect(try placed("The District Line platform elevator at Somewhere is temporarily out-of-service.")
                == PlatformPlacement.Placed(rule: .line, platforms: ["X1"], exitOnly: false))
        #expect(try placed("The Circle Line platform elevator at Somewhere is temporarily out-of-service.")
                == PlatformPlacement.Placed(rule: .line, platforms: ["X2"], exitOnly: false))
        #expect(try placed("The Metropolitan Line platform elevator at Somewhere is temporarily out-of-service.") == nil)
    }

    /// A headline in CTA's way, the station's name before the direction (HANDMADE here, after the
    /// real "Western Loop-bound Platform Elevator Out of Service"): at Oakton-Skokie the name's
    /// "Skokie" is no direction, though its other platform is `(Dempster-Skokie-bound)`.
    @Test func theStationsOwnNameIsNoDirection() throws {
        let station = try #require(Self.stations.station(for: "41680"))
        let alert = Alert(id: "h", kindSource: .fromTime, headline: "Oakton-Skokie Howard-bound Platform Elevator Out of Service", description: "",
                          scopes: [.station("41680")], details: .init(impact: "Elevator Status"))
        let outage = try #require(AlertOutage(alert))
        let placed = try #require(PlatformPlacement.place(outage, at: station))
        let howardBound = station.platforms.filter { $0.name?.contains("Howard-bound") == true }.map(\.stopID)
        #expect(howardBound.count == 1 && placed.platforms == howardBound)
    }
}
