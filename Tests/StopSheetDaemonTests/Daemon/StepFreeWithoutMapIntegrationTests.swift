import Foundation
import StopSheetCore
import StopSheetTestSupport
import Testing

/// Issue 50 through the real binaries: CTA's real station data and its real alerts body of
/// 2026-04-26 (six `Elevator Status` alerts), at the capture's moment. `stopsheetctl sheet` says
/// in plain words which elevator is out and that the station's map is not known.
@Suite struct StepFreeWithoutMapIntegrationTests {
    static func daemon(alerts fixture: String) throws -> DaemonProcess {
        try DaemonProcess(["--now", "2026-04-26T10:56:08-05:00", "--stations-url", "file://" + Fixtures.path("L_stops_2021.csv"),
                           "--alerts-url", "file://" + Fixtures.path(fixture)])
    }

    static func sheet(_ daemon: DaemonProcess, _ stopID: String) throws -> String {
        try StopSheetCtlIntegrationTests.ctl(["--socket", daemon.socketPath, "sheet", stopID], columns: 400).stdout
    }

    static func now(_ daemon: DaemonProcess, _ stopID: String) throws -> JSON {
        let out = try StopSheetCtlIntegrationTests.ctl(["--socket", daemon.socketPath, "--json", "call", "stopSheet", "{\"stopId\":\"\(stopID)\"}"]).stdout
        return try #require(try JSONParser.parse(Array(out.utf8))["accessibilityButton"]?["now"])
    }

    @Test func theRealCaptureSaysWhichElevatorIsOutAndThatTheMapIsNotKnown() throws {
        let daemon = try Self.daemon(alerts: "alerts_2026-04-26.json")
        // Forest Park: "The elevator at Forest Park (Blue Line)": any of its elevators.
        let forestPark = try Self.sheet(daemon, "40390")
        #expect(forestPark.contains("Step-free access is available at Forest Park."), "\(forestPark)")
        #expect(forestPark.contains("Step-free now: unknown (as reported; no pathways): an elevator alert 114527 does not name is out, and the station's map is not known"),
                "\(forestPark)")
        #expect(forestPark.contains("Forest Park (O'Hare-bound) platform: step-free entry and exit unknown (an elevator out; the station's map is not known)"),
                "\(forestPark)")
        let now = try Self.now(daemon, "40390")
        #expect(now["stepFree"] == "unknown" && now["complete"] == false)
        #expect(now["outages"]?.arrayValue?.first?["placedBy"] == nil)
        // Western: "The Loop-bound platform elevator at the Western Brown Line station": that
        // platform alone, by the direction its name in the station data says.
        let western = try Self.sheet(daemon, "41480")
        #expect(western.contains("Step-free now: partial (as reported; no pathways): an elevator of the Western (Loop-bound) platform is out (alert 111489), and the station's map is not known"),
                "\(western)")
        #expect(western.contains("Western (Loop-bound) platform: step-free entry and exit unknown"), "\(western)")
        #expect(!western.contains("Western (Kimball-bound) platform:"), "\(western)")
        let westernNow = try Self.now(daemon, "41480")
        #expect(westernNow["outages"]?.arrayValue?.first?["placedBy"] == "direction")
        #expect(westernNow["outages"]?.arrayValue?.first?["platforms"] == ["30284"])
        // Jackson: "The elevator to/from street at the Adams-Jackson entrance": any platform.
        let jackson = try Self.sheet(daemon, "40560")
        #expect(jackson.contains("Step-free now: unknown (as reported; no pathways): an elevator alert 114461 does not name is out, and the station's map is not known"),
                "\(jackson)")
        // A station with no elevator alert keeps its reported values and says nothing more.
        let clarkLake = try Self.sheet(daemon, "40380")
        #expect(clarkLake.contains("Step-free now: available (as reported; no pathways)\n"), "\(clarkLake)")
        #expect(try Self.now(daemon, "40380")["platforms"]?.arrayValue?.first?["entry"] == true)
    }

    /// The HANDMADE families through stopsheetctl: several directions, exit only, a named line
    /// (Clark/Lake's three alerts together: any one vague alert makes every platform unsaid).
    @Test func theHandMadeFamiliesSayWhichPlatformsElevatorIsOut() throws {
        let daemon = try Self.daemon(alerts: "alerts_elevator_prose.HANDMADE.json")
        let belmont = try Self.sheet(daemon, "41320")
        #expect(belmont.contains("an elevator of the Belmont (Howard-bound) and Belmont (Kimball-Linden-bound) platforms is out (alert 90002)"), "\(belmont)")
        #expect(belmont.contains("an elevator of the Belmont (Loop-bound) and Belmont (95th-bound) platforms is out (alert 90003)"), "\(belmont)")
        let kingDrive = try Self.sheet(daemon, "41140")
        #expect(kingDrive.contains("Step-free now: partial (as reported; no pathways): an elevator of the King Drive (Cottage Grove-bound) platform is out (alert 90004), and the station's map is not known"),
                "\(kingDrive)")
        #expect(kingDrive.contains("King Drive (Cottage Grove-bound) platform: step-free exit unknown"), "\(kingDrive)")
        let clarkLake = try Self.sheet(daemon, "40380")
        #expect(clarkLake.contains("Step-free now: unknown (as reported; no pathways): an elevator alert 90001 does not name is out; an elevator of the Clark/Lake (Inner Loop) and Clark/Lake (Outer Loop) platforms is out (alert 90005); an elevator of the Clark/Lake (Forest Pk-bound) platform is out (alert 90006), and the station's map is not known"),
                "\(clarkLake)")
    }
}
