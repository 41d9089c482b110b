import Foundation
import Glibc
import StopSheetClient
import StopSheetCore
import Testing

/// `stopsheetctl watch` as a person reads it (issue 18): what changed, named; data that never
/// loaded or went stale said as `sheet` says it; nothing for a reconnect that changed nothing;
/// lines that fit `COLUMNS`; bus stops. The real binaries, alerts and stations
/// from files the test edits, each change made visible with a `refresh` that answers when done.
@Suite struct WatchIntegrationTests {
    static let stopsFile = Fixtures.path("L_stops_2021.csv")
    /// `HH:MM:SS  ` before each headline.
    static let stamp = #"^[0-9]{2}:[0-9]{2}:[0-9]{2}  "#
    static let pad = String(repeating: " ", count: 10)

    /// An app-format alerts document: (id, headline, impact, scope) per alert.
    static func alerts(_ alerts: [(id: String, headline: String, impact: String?, scope: String)]) -> String {
        let items = alerts.map { alert in
            let impact = alert.impact.map { #","impact":"\#($0)""# } ?? ""
            return #"{"id":"\#(alert.id)","status":"active","headline":"\#(alert.headline)","description":""\#(impact),"scopes":[\#(alert.scope)]}"#
        }
        return #"{"alerts":["# + items.joined(separator: ",") + "]}"
    }

    static let blue = (id: "1", headline: "Blue Line delays", impact: String?.none, scope: #"{"type":"route","id":"Blue"}"#)
    static let brown = (id: "2", headline: "Brown and Red Line Delays", impact: String?.none, scope: #"{"type":"route","id":"Brn"}"#)
    static let elevator = (id: "3", headline: "Elevator at Clark/Lake out of service", impact: String?.some("Elevator Status"),
                           scope: #"{"type":"station","id":"40380"}"#)

    /// A headline line: the time, then `text` exactly.
    func expectHeadline(_ line: String?, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let line = line ?? "nothing after \(patience) s"
        #expect(line.range(of: Self.stamp, options: .regularExpression) != nil && line.dropFirst(10) == text, "\(line)", sourceLocation: sourceLocation)
    }

    final class Files {
        let directory: String
        var alerts: String { directory + "/alerts.json" }
        var stops: String { directory + "/stops.csv" }
        init() throws {
            directory = try makeTemporaryDirectory()
            try String(contentsOfFile: WatchIntegrationTests.stopsFile, encoding: .utf8).write(toFile: stops, atomically: true, encoding: .utf8)
        }
        deinit { try? FileManager.default.removeItem(atPath: directory) }
        func write(alerts text: String) throws { try text.write(toFile: alerts, atomically: true, encoding: .utf8) }
        var daemonArguments: [String] { ["--alerts-url", "file://" + alerts, "--stations-url", "file://" + stops] }
    }

    @Test func aChangeLineNamesWhatChangedAndFitsTheWidth() throws {
        let files = try Files()
        try files.write(alerts: Self.alerts([Self.blue, Self.brown]))
        let daemon = try DaemonProcess(files.daemonArguments)
        let watch = try WatchProcess(socket: daemon.socketPath, ["40380"], environment: ["COLUMNS": "80"])
        var seen: [String] = []
        func next() -> String? {
            let line = watch.output.next(timeout: patience)
            if let line { seen.append(line) }
            return line
        }
        expectHeadline(next(), "Clark/Lake (40380): 2 train service alerts · step-free access")

        // A headline edited.
        try files.write(alerts: Self.alerts([Self.blue, (id: "2", headline: "Brown Line Delays Cleared", impact: nil, scope: Self.brown.scope)]))
        try daemon.refreshAll()
        expectHeadline(next(), "Clark/Lake (40380): 2 train service alerts · step-free access")
        #expect(next() == Self.pad + "edited: Active train alert: Brown Line Delays Cleared", "\(seen)")
        #expect(next() == Self.pad + "  was: Brown and Red Line Delays", "\(seen)")

        // An elevator outage added: an accessibility advisory, said to be one.
        try files.write(alerts: Self.alerts([Self.blue, Self.brown, Self.elevator]))
        try daemon.refreshAll()
        expectHeadline(next(), "Clark/Lake (40380): 3 train service alerts · step-free access")
        // The Brown Line headline is back to what it was: an edit too, listed after the addition.
        #expect(next() == Self.pad + "added: accessibility advisory: Elevator at Clark/Lake out of service", "\(seen)")
        #expect(next() == Self.pad + "edited: Active train alert: Brown and Red Line Delays", "\(seen)")
        #expect(next() == Self.pad + "  was: Brown Line Delays Cleared", "\(seen)")
        // Without a map, an elevator alert that names no platform may be on any platform's way
        // (issue 50): the verdict's change, then each platform's, each cut to the width.
        #expect(next() == Self.pad + "step-free now: available → unknown", "\(seen)")
        for platform in ["Forest Pk-bound", "O'Hare-bound", "Inner Loop", "Outer Loop"] {
            #expect(next()?.hasPrefix(Self.pad + "Clark/Lake (\(platform)) platform: step-free entry and exit unkno") == true, "\(seen)")
        }

        // One removed, one added whose headline is longer than the line: cut, with an ellipsis.
        let long = (id: "4", headline: "Boarding Change, Delays Between Armitage and Merchandise Mart While Crews Repair the Track", impact: String?.none,
                    scope: Self.brown.scope)
        try files.write(alerts: Self.alerts([Self.brown, Self.elevator, long]))
        try daemon.refreshAll()
        expectHeadline(next(), "Clark/Lake (40380): 3 train service alerts · step-free access")
        let added = next() ?? ""
        #expect(added.hasPrefix(Self.pad + "added: Active train alert: Boarding Change, Delays Between Armitage") && added.hasSuffix("…"), "\(added)")
        #expect(added.count == 80, "\(added.count) columns: \(added)")
        #expect(next() == Self.pad + "removed: Active train alert: Blue Line delays", "\(seen)")

        // Step-free access lost at the station: status and tone.
        let stops = try String(contentsOfFile: files.stops, encoding: .utf8)
        try stops.replacingOccurrences(of: ",40380,true,", with: ",40380,false,").write(toFile: files.stops, atomically: true, encoding: .utf8)
        try daemon.refreshAll()
        expectHeadline(next(), "Clark/Lake (40380): 3 train service alerts · no step-free access")
        #expect(next() == Self.pad + "step-free access → no step-free access (tone good → warn)", "\(seen)")
        for line in seen { #expect(line.count <= 80, "\(line.count) columns: \(line)") }
    }

    /// Alerts that never loaded are not "0 alerts": the same words as `sheet`.
    @Test func alertsThatNeverLoadedOrWentStaleAreSaidAsSheetSaysThem() throws {
        let files = try Files()
        let daemon = try DaemonProcess(files.daemonArguments) { $0.contains("alerts failing") && !$0.hasPrefix("serving no stations") }
        let sheet = try StopSheetCtlIntegrationTests.ctl(["--socket", daemon.socketPath, "sheet", "40380"]).stdout
        #expect(sheet.contains("\ntrain alerts not loaded yet · step-free access\nTrain alert data has not loaded yet.\n"), "\(sheet)")
        let watch = try WatchProcess(socket: daemon.socketPath, ["40380"], environment: ["COLUMNS": "80"])
        expectHeadline(watch.output.next(timeout: patience), "Clark/Lake (40380): train alerts not loaded yet · step-free access")
        #expect(watch.output.next(timeout: patience) == Self.pad + "Train alert data has not loaded yet.")

        let staleFiles = try Files()
        try staleFiles.write(alerts: Self.alerts([Self.blue]))
        let stale = try DaemonProcess(staleFiles.daemonArguments + ["--alerts-stale-after", "1", "--alerts-interval", "3600"])
        let staleWatch = try WatchProcess(socket: stale.socketPath, ["40380"], environment: ["COLUMNS": "80"])
        // Stale already when watch subscribes (then the note follows the first headline), or a
        // notification soon after, whose headline the note follows: either way within 3 lines.
        var lines: [String] = []
        while lines.count < 3, !(lines.last ?? "").contains("out of date"), let line = staleWatch.output.next(timeout: patience) { lines.append(line) }
        let note = lines.last
        let staleSheet = try StopSheetCtlIntegrationTests.ctl(["--socket", stale.socketPath, "sheet", "40380"]).stdout
        let pattern = #"Train alert data is out of date \(loaded [0-9]+ s ago\)\."#
        #expect(note?.range(of: "^" + Self.pad + pattern + "$", options: .regularExpression) != nil, "\(lines)")
        #expect(staleSheet.range(of: "\n" + pattern + "\n", options: .regularExpression) != nil, "\(staleSheet)")
    }

    /// A restart with the same data: the reconnect line, then nothing until something changes.
    @Test func aReconnectThatChangedNothingPrintsOnlyTheReconnectLine() throws {
        let files = try Files()
        try files.write(alerts: Self.alerts([Self.blue]))
        let socket = files.directory + "/restart.sock"
        // The later --socket wins over DaemonProcess's own.
        var daemon: DaemonProcess? = try DaemonProcess(files.daemonArguments + ["--socket", socket])
        let watch = try WatchProcess(socket: socket, ["40380", "--health"], environment: ["COLUMNS": "80"])
        let json = try WatchProcess(socket: socket, ["--json", "40380"])
        expectHeadline(watch.output.next(timeout: patience), "Clark/Lake (40380): 1 train service alert · step-free access")
        expectHeadline(watch.output.next(timeout: patience), "health: ready")
        let firstReply = try JSONParser.parse(try #require(json.output.next(timeout: patience)))
        #expect(daemon?.stop() == 0)
        daemon = nil
        #expect(watch.output.next(timeout: patience)?.contains("connection lost") == true)
        // The new daemon is put in place once it has loaded (its socket renamed to the watched
        // path), so the reconnect meets the same data, not a daemon still loading.
        let loaded = try DaemonProcess(files.daemonArguments)
        try #require(rename(loaded.socketPath, socket) == 0, "rename: \(errno)")
        daemon = loaded
        var lines: [String] = []
        while !(lines.last ?? "").contains("subscribed again") {
            lines.append(try #require(watch.output.next(timeout: 30), "after \(lines)"))
        }
        // Ordered, not timed: the next thing watch prints is this change, nothing before it.
        try files.write(alerts: Self.alerts([Self.blue, Self.brown]))
        _ = try StopSheetClient(socketPath: socket, timeout: .seconds(60)).refresh(.all)
        let changed = watch.output.next(timeout: patience)
        expectHeadline(changed, "Clark/Lake (40380): 2 train service alerts · step-free access")
        let added = watch.output.next(timeout: patience)
        #expect(added == Self.pad + "added: Active train alert: Brown and Red Line Delays", "after \(lines): \(changed ?? "nothing"), \(added ?? "nothing")")
        _ = daemon
        // Under --json, a reconnect prints the new subscribe result, as documented: a fresh baseline.
        let second = try JSONParser.parse(try #require(json.output.next(timeout: patience)))
        #expect(second["subscription"] != nil && second["sheets"]?["40380"] != nil && firstReply["subscription"] != nil, "\(second)")
    }

    @Test func aDegradedHealthLineFitsTheWidth() throws {
        let files = try Files()
        try files.write(alerts: Self.alerts([Self.blue]))
        let daemon = try DaemonProcess(files.daemonArguments)
        for columns in [60, 80] {
            let watch = try WatchProcess(socket: daemon.socketPath, ["--health"], environment: ["COLUMNS": String(columns)])
            expectHeadline(watch.output.next(timeout: patience), "health: ready")
            try "not json, but long enough to make the error run past any line: \(String(repeating: "x", count: 100))".write(toFile: files.alerts, atomically: true, encoding: .utf8)
            _ = try? daemon.refreshAll()
            expectHeadline(watch.output.next(timeout: patience), "health: ready → degraded")
            let error = watch.output.next(timeout: patience) ?? "nothing after \(patience) s"
            #expect(error.hasPrefix(Self.pad + "alerts: last error: ") && error.count == columns && error.hasSuffix("…"), "\(error.count) columns: \(error)")
            try files.write(alerts: Self.alerts([Self.blue]))
            try daemon.refreshAll()
            expectHeadline(watch.output.next(timeout: patience), "health: degraded → ready")
            #expect(watch.output.next(timeout: patience) == Self.pad + "alerts: refreshing fine again")
        }
    }

    @Test func aBusStopIsWatchedWithBusAndHintedWithout() throws {
        let daemon = try DaemonProcess(["--demo"])
        let hinted = try StopSheetCtlIntegrationTests.ctl(["--socket", daemon.socketPath, "watch", "1106"])
        #expect(hinted.status == 1)
        #expect(hinted.stderr.contains("hint: is this a bus stop? try --bus: stopsheetctl watch --bus 1106"), "\(hinted.stderr)")
        let watch = try WatchProcess(socket: daemon.socketPath, ["--bus", "1106"], environment: ["COLUMNS": "100"])
        expectHeadline(watch.output.next(timeout: patience), "Bus stop 1106: bus stops have no train alerts and no accessibility button.")
    }
}
