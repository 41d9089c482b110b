import Foundation
import Glibc
import Posix
import StopSheetClient
import StopSheetCore
import StopSheetTestSupport
import Testing

/// A region on one box (README): two real daemons of two agencies in one run directory — CTA's
/// demo and MBTA's feed of `Tests/Fixtures/gtfs-any-agency` with the real MBTA alerts capture —
/// beside a socket file nobody listens on, as `stopsheetctl instances`, `stations --all`,
/// `--instance` and `StopSheetClient.instances` see them.
@Suite struct InstancesIntegrationTests {
    /// The two daemons and the dead socket, in one run directory.
    final class Region {
        let directory: String
        let cta: DaemonProcess
        let mbta: DaemonProcess

        init() throws {
            directory = try makeTemporaryDirectory()
            cta = try DaemonProcess(["--demo"], socket: directory + "/cta.sock")
            mbta = try DaemonProcess(["--stations-url", "file://" + Fixtures.path("gtfs-any-agency"),
                                      "--alerts-url", "file://" + Fixtures.path("gtfs-realtime/mbta-2017-12-23_alerts.pb")],
                                     socket: directory + "/mbta.sock")
            close(try boundUnixSocket(at: directory + "/old.sock"))
        }

        deinit {
            _ = cta.stop()
            _ = mbta.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// stopsheetctl with this run directory, 80 columns, and `environment` over none of the caller's STOPSHEETD_*.
        func ctl(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ProcessResult {
            var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("STOPSHEETD_") }
            environment["STOPSHEETD_RUN_DIR"] = directory
            environment["COLUMNS"] = "80"
            for (key, value) in extra { environment[key] = value }
            return try runProcess(DaemonProcess.ctlBinary, arguments, environment: environment)
        }
    }

    /// The demo's feed time is its start-up's.
    static func normalisingTimes(_ text: String) -> String {
        text.replacingOccurrences(of: "produced at 20[0-9-]{8}T[0-9:]{8}-06:00", with: "produced at <time>", options: .regularExpression)
    }

    @Test func instancesListsEveryAgencysDaemonAndTheStoppedOne() throws {
        let region = try Region()
        let listed = try region.ctl(["instances"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(Self.normalisingTimes(listed.stdout) == """
            cta   CTA · America/Chicago · ready · 143 stations, 17 alerts
                  feed produced at <time>
            mbta  MBTA · America/New_York · ready · 5 stations, 10 alerts
                  feed produced at 2017-12-23T08:00:19-05:00
            old   not running (nothing listens on \(region.directory)/old.sock)

            """)
        #expect(listed.stderr == "")

        let json = try JSONParser.parse(try region.ctl(["--json", "instances"]).stdout)
        #expect(json.arrayValue?.map { $0["instance"] } == ["cta", "mbta", "old"])
        #expect(json.arrayValue?.map { $0["running"] } == [true, true, false])
        #expect(json.element(0)?["health"]?["agencies"] == ["CTA"] && json.element(1)?["health"]?["agencies"] == ["MBTA"])
        #expect(json.element(1)?["socket"]?.stringValue == region.directory + "/mbta.sock")
        #expect(json.element(2)?["health"] == .null && json.element(2)?["error"] == .null)
    }

    @Test func stationsAllAsksEveryInstanceAndShowsEachAgencysUnderItsName() throws {
        let region = try Region()
        let found = try region.ctl(["stations", "South", "--all"])
        #expect(found.status == 0)
        #expect(found.stdout == """
            CTA (cta)
              40840 South Boulevard (Purple Line, Purple Line Express) · no step-free access
              40360 Southport (Brown Line) · step-free access

            MBTA (mbta)
              place-sstat South Station (Red Line, Middleborough/Lakeville Line,
                    Framingham/Worcester Line) · step-free access

            """)
        #expect(found.stderr == "stopsheetctl: old: not running (nothing listens on \(region.directory)/old.sock)\n")

        let json = try JSONParser.parse(try region.ctl(["--json", "stations", "North Station", "--all"]).stdout)
        #expect(json.arrayValue?.map { $0["agencies"] } == [["CTA"], ["MBTA"], []])
        #expect(json.element(0)?["stations"]?["count"] == 0)
        #expect(json.element(1)?["stations"]?["stations"]?.element(0)?["stationId"] == "place-north")
        #expect(json.element(2)?["stations"] == .null)
    }

    /// `--instance NAME` and `STOPSHEETD_INSTANCE` pick NAME.sock of the run directory; a socket
    /// and an instance together contradict.
    @Test func instanceNamesTheDaemonToAsk() throws {
        let region = try Region()
        let north = try region.ctl(["--instance", "mbta", "--json", "station", "place-north"])
        let northName = try JSONParser.parse(north.stdout)["stationName"]
        #expect(north.status == 0 && northName == "North Station")
        let clark = try region.ctl(["--json", "station", "40380"], environment: ["STOPSHEETD_INSTANCE": "cta"])
        let clarkName = try JSONParser.parse(clark.stdout)["stationName"]
        #expect(clark.status == 0 && clarkName == "Clark/Lake")
        let unknown = try region.ctl(["--instance", "mbta", "station", "40380"])
        #expect(unknown.status == 1, "CTA's station is not MBTA's")
        let stopped = try region.ctl(["--instance", "old", "health"])
        #expect(stopped.status == 3 && stopped.stderr.contains("\(region.directory)/old.sock"), "\(stopped.stderr)")

        let both = try region.ctl(["--instance", "cta", "--socket", region.cta.socketPath, "health"])
        #expect(both.status == 2 && both.stderr.hasPrefix("stopsheetctl: --socket and --instance both name a daemon"))
        let bothSet = try region.ctl(["health"], environment: ["STOPSHEETD_INSTANCE": "cta", "STOPSHEETD_SOCKET": region.cta.socketPath])
        #expect(bothSet.status == 2 && bothSet.stderr.hasPrefix("stopsheetctl: STOPSHEETD_SOCKET and STOPSHEETD_INSTANCE are both set"))
        // The command line over the environment.
        let over = try region.ctl(["--instance", "mbta", "--json", "health"], environment: ["STOPSHEETD_SOCKET": region.cta.socketPath])
        let overAgencies = try JSONParser.parse(over.stdout)["agencies"]
        #expect(overAgencies == ["MBTA"])
        for bad in ["", "../cta", "."] {
            let refused = try region.ctl(["--instance", bad, "health"])
            #expect(refused.status == 2 && refused.stderr.contains("is not an instance name"), "\(bad): \(refused.stderr)")
        }
        let allOfOne = try region.ctl(["--instance", "cta", "stations", "--all"])
        #expect(allOfOne.status == 2)
    }

    /// A socket named by STOPSHEETD_SOCKET outside the run directory is asked too; a running
    /// instance that does not answer makes the exit status 3, a stopped one does not.
    @Test func theNamedSocketIsAskedTooAndAMuteOneFails() throws {
        let region = try Region()
        let elsewhere = try DaemonProcess(["--demo"])
        defer { _ = elsewhere.stop() }
        let listed = try region.ctl(["--json", "instances"], environment: ["STOPSHEETD_SOCKET": elsewhere.socketPath])
        #expect(listed.status == 0)
        let names = try JSONParser.parse(listed.stdout).arrayValue?.map { $0["instance"] }
        #expect(names == [.string(elsewhere.socketPath), "cta", "mbta", "old"])

        let mute = try boundUnixSocket(at: region.directory + "/mute.sock")
        defer { close(mute) }
        listen(mute, 8)
        let failing = try region.ctl(["--timeout", "0.5", "instances"])
        #expect(failing.status == 3)
        #expect(failing.stdout.contains("mute  not answering: no answer within the timeout\n"), "\(failing.stdout)")
    }

    /// The library's own: each instance's health, read by type.
    @Test func theClientLibraryFindsEachInstancesHealth() throws {
        let region = try Region()
        let found = StopSheetClient.instances(in: region.directory)
        #expect(found.map(\.instance.name) == ["cta", "mbta", "old"])
        #expect(found.map(\.isRunning) == [true, true, false])
        let health = found.compactMap { try? $0.health.get().value }
        #expect(health.map(\.agencies) == [["CTA"], ["MBTA"]])
        #expect(health.map(\.timeZone.value) == ["America/Chicago", "America/New_York"])
        #expect(health.map(\.stations.count) == [143, 5])
    }
}

extension JSON {
    /// An array's element at `index`, nil past its end or for anything but an array.
    func element(_ index: Int) -> JSON? { arrayValue.flatMap { $0.indices.contains(index) ? $0[index] : nil } }
}
