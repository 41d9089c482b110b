import Foundation
import StopSheetCore
import StopSheetTestSupport
import Testing

/// `stopsheetctl map` and `map --dot` (issue 51) draw every station of the four real maps in the
/// fixtures (Euskotren's, WMATA's with the real 2019 lift outages, Prague's, TfL's), and
/// Graphviz's `dot -Tsvg` renders every DOT graph. About 40 s, most of it TfL's 509 stations.
@Suite struct StationMapDrawingIntegrationTests {
    static let maps: [(folder: String, lifts: String?)] = [
        ("gtfs-pathways/euskotren-2025-11-27", nil),
        ("gtfs-pathways/wmata-2026-04", "facilities/wmata_elevator_incidents_2019-04-05.REAL.json"),
        ("gtfs-pathways/prague-pid-2020-07-02", nil),
        ("facilities/tfl/gtfs", nil),
    ]

    @Test(arguments: maps.indices)
    func everyStationIsDrawnAndGraphvizRendersIt(map index: Int) throws {
        let (folder, lifts) = Self.maps[index]
        guard let dot = ["/usr/bin/dot", "/usr/local/bin/dot"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            Issue.record("Graphviz's dot is not installed (scripts/install-deps.sh installs graphviz)")
            return
        }
        var arguments = ["--stations-url", "file://\(Fixtures.directory)/\(folder)", "--stations-interval", "3600"]
        var loaded: (String) -> Bool = { $0.hasPrefix("serving ") && !$0.hasPrefix("serving no ") }
        if let lifts {
            arguments += ["--facilities-url", "file://\(Fixtures.path(lifts))", "--facilities-interval", "3600"]
            loaded = FacilitiesIntegrationTests.loaded
        }
        let daemon = try DaemonProcess(arguments, until: loaded)
        defer { _ = daemon.stop() }
        let ids = try #require(try daemon.result("stations")["stations"]?.arrayValue).compactMap { $0["stationId"]?.stringValue }
        #expect(ids.count > 40)
        let directory = try makeTemporaryDirectory()
        FileManager.default.createFile(atPath: directory + "/ids", contents: Data((ids.joined(separator: "\n") + "\n").utf8))
        // Each station drawn both ways, one stopsheetctl each; a failing one stops the loop.
        let script = """
            while read -r id; do
                "$0" --socket "$1" map "$id" > "$2/terminal.out" || { echo "map $id failed"; exit 1; }
                grep -q . "$2/terminal.out" || { echo "map $id printed nothing"; exit 1; }
                "$0" --socket "$1" map "$id" --dot || { echo "map $id --dot failed"; exit 1; }
            done < "$2/ids" > "$2/all.dot"
            """
        let drawn = try runProcess("/bin/sh", ["-c", script, DaemonProcess.ctlBinary, daemon.socketPath, directory])
        #expect(drawn.status == 0, "\(folder): \(drawn.stdout.suffix(500)) \(drawn.stderr.suffix(500))")
        let graphs = try String(contentsOfFile: directory + "/all.dot", encoding: .utf8)
        #expect(graphs.components(separatedBy: "\ndigraph ").count == ids.count, "\(folder): one graph per station")
        let rendered = try runProcess(dot, ["-Tsvg", directory + "/all.dot"])
        #expect(rendered.status == 0, "\(folder): dot -Tsvg: \(rendered.stderr.suffix(1000))")
        #expect(rendered.stdout.components(separatedBy: "<svg ").count - 1 == ids.count, "\(folder): one SVG per station")
        if lifts != nil {
            // The real outages are drawn: a lift out red and dashed.
            #expect(graphs.contains("color=red, style=dashed"))
        }
    }
}
