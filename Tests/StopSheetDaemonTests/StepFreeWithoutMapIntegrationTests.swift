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
        #expect(forestPark.contains("Forest Park platform 30076: step-free entry and exit unknown (an elevator out; the station's map is not known)"),
                "\(forestPark)")
        let now = try Self.now(daemon, "40390")
        #expect(now["stepFree"] == "unknown" && now["complete"] == false)
        // A station with no elevator alert keeps its reported values and says nothing more.
        let clarkLake = try Self.sheet(daemon, "40380")
        #expect(clarkLake.contains("Step-free now: available (as reported; no pathways)\n"), "\(clarkLake)")
        #expect(try Self.now(daemon, "40380")["platforms"]?.arrayValue?.first?["entry"] == true)
    }
}
