import Foundation
import StopSheetCore
import Testing

/// Step-free now through the real binaries: Prague's real metro topology as a static feed
/// (Tests/Fixtures/gtfs-pathways, with made trips), a real elevator outage at Nemocnice Motol
/// written by the reference encoder (Tests/GTFSRealtime/step_free_feeds.py) switched on and off
/// in the alerts file, each change made visible with a `refresh` that answers when done.
@Suite struct StepFreeIntegrationTests {
    static let feed = "prague-pid-2020-07-02"
    static let pad = String(repeating: " ", count: 10)

    final class Files {
        let directory: String
        var alerts: String { directory + "/alerts.pb" }
        init() throws {
            directory = try makeTemporaryDirectory()
            let made = try runProcess(try GTFSFeeds.python.get(), [GTFSFeeds.tests + "/GTFSRealtime/step_free_feeds.py", "--out", directory,
                                                                   "--now", String(Int64(Date().timeIntervalSince1970)), "--static"])
            guard made.status == 0 else { throw TestFailure("step_free_feeds.py failed: \(made.stderr.suffix(2000))") }
            try use("empty")
        }
        deinit { try? FileManager.default.removeItem(atPath: directory) }
        /// Serves `name.pb` (an alert id, or `empty`) as the alerts.
        func use(_ name: String) throws {
            try? FileManager.default.removeItem(atPath: alerts)
            try FileManager.default.copyItem(atPath: directory + "/\(name).pb", toPath: alerts)
        }
        var daemonArguments: [String] {
            ["--alerts-url", "file://" + alerts, "--stations-url", "file://" + directory + "/" + StepFreeIntegrationTests.feed]
        }
    }

    static func ctl(_ daemon: DaemonProcess, _ arguments: [String]) throws -> String {
        try StopSheetCtlIntegrationTests.ctl(["--socket", daemon.socketPath] + arguments, columns: 200).stdout
    }

    @Test func verdictsPushesAndTheCommandLine() throws {
        let files = try Files()
        let daemon = try DaemonProcess(files.daemonArguments)
        defer { _ = daemon.stop() }
        try daemon.waitForStatus(DaemonProcess.bothLoaded)
        let watch = try WatchProcess(socket: daemon.socketPath, ["U306S1"], environment: ["COLUMNS": "200"])
        var seen: [String] = []
        func next() -> String? {
            let line = watch.output.next(timeout: patience)
            if let line { seen.append(line) }
            return line
        }
        #expect(next()?.hasSuffix("Nemocnice Motol (U306S1): no train service alerts · step-free access") == true, "\(seen)")

        // No outage: every platform has both, from the pathways; `stations` gives the word.
        let before = try daemon.result("stopSheet", ["stopId": "U306S1"])["accessibilityButton"]?["now"]
        #expect(before?["basis"] == "pathways")
        #expect(before?["stepFree"] == "available")
        #expect(before?["platforms"]?.arrayValue?.map { [$0["entry"], $0["exit"]] } == [[true, true], [true, true]])
        let entries = try daemon.result("stations")["stations"]?.arrayValue ?? []
        #expect(entries.first { $0["stationId"] == "U306S1" }?["stepFreeNow"] == "available")
        // A metro station whose platforms the pathways reach from no step-free entrance: none.
        let none = entries.filter { $0["stepFreeNow"] == "none" }.compactMap { $0["stationId"]?.stringValue }
        #expect(none.contains("U118S1"), "\(none)")

        // The elevator goes out: one platform loses both, and the subscriber hears it.
        try files.use("prg-motol")
        try daemon.refreshAll()
        #expect(next()?.hasSuffix("Nemocnice Motol (U306S1): 1 train service alert · step-free access") == true, "\(seen)")
        #expect(next() == Self.pad + "added: accessibility advisory: Elevator out of service", "\(seen)")
        #expect(next() == Self.pad + "step-free now: available → partial", "\(seen)")
        #expect(next() == Self.pad + "Nemocnice Motol platform U306Z102P: lost step-free entry and exit (elevator out: alert prg-motol)", "\(seen)")
        let during = try daemon.result("station", ["stopId": "U306S1"])["now"]
        #expect(during?["stepFree"] == "partial")
        #expect(during?["outages"] == [["alertId": "prg-motol", "facility": "elevator", "facilityId": nil, "pathways": ["U306P10"], "source": "alerts",
                                         "status": "notAvailable", "since": nil, "expectedBack": nil, "description": "", "placedBy": "stopReference"]])
        #expect(during?["platforms"]?.arrayValue?.map { [$0["entry"], $0["exit"]] } == [[true, true], [false, false]])
        let sheet = try Self.ctl(daemon, ["sheet", "U306S1"])
        #expect(sheet.contains("\n  Step-free now: partial (from the station's pathways)\n"), "\(sheet)")
        #expect(sheet.contains("Nemocnice Motol platform U306Z102P: no step-free entry or exit (elevator"), "\(sheet)")
        // The spec's sentence and tone do not move.
        #expect(sheet.contains("Step-free access is available at Nemocnice Motol."), "\(sheet)")
        let station = try Self.ctl(daemon, ["station", "U306S1"])
        #expect(station.contains("Step-free now: partial (from the station's pathways)"), "\(station)")

        // And comes back.
        try files.use("empty")
        try daemon.refreshAll()
        #expect(next()?.hasSuffix("Nemocnice Motol (U306S1): no train service alerts · step-free access") == true, "\(seen)")
        #expect(next() == Self.pad + "removed: accessibility advisory: Elevator out of service", "\(seen)")
        #expect(next() == Self.pad + "step-free now: partial → available", "\(seen)")
        #expect(next() == Self.pad + "Nemocnice Motol platform U306Z102P: step-free entry and exit again", "\(seen)")

        // "Elevator 7" at Můstek places nothing: it may be any of the station's elevators, each of
        // which some platform needs, so no platform's access is said, and never "available".
        try files.use("prg-mustek-7")
        try daemon.refreshAll()
        let mustek = try Self.ctl(daemon, ["sheet", "U1072S1"])
        #expect(mustek.contains("Step-free now: unknown (from the station's pathways); an elevator outage names no elevator: alert prg-mustek-7"),
                "\(mustek)")
        #expect(mustek.contains("Můstek platform U1072Z101P: step-free entry and exit unknown (Elevator 7 out, not placed)"), "\(mustek)")
    }
}
