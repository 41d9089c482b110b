import Foundation
import StopSheetCore
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// The daemon's own rules that need no running daemon: which source each cache gets from the
/// configuration, what a config path reads as, and the STATUS= line while READY=1 waits. The
/// integration suites run them through the binary; here each rule is stated on its own.
@Suite struct DaemonSettingsTests {
    private static let t0 = Instant(secondsSince1970: 1_700_000_000)

    private func config(_ arguments: [String]) throws -> Config {
        guard case .run(let config) = try Config.parse(arguments: arguments, environment: [:]) else { throw TestFailure("not a run") }
        return config
    }

    private func settings(_ cache: CacheName, _ arguments: [String]) throws -> (source: any Source, interval: Double)? {
        try Daemon.settings(cache, try config(arguments), startedAt: Self.t0, clock: .fixed(Self.t0), chicago: TimeZones.cta.chicago)
    }

    /// A station map read with the stations is optional (a round without it keeps the stations);
    /// an inventory read with the lift status is required (units without it have no place).
    @Test func eachCacheGetsItsURLAndItsCompanionWithItsOwnRequirement() throws {
        let stations = try #require(try settings(.stations, ["--stations-url", "file:///stations.csv", "--topology-url", "file:///map.zip"]))
        let topology = try #require(stations.source as? CompanionSource, "the stations' source carries the map")
        #expect(topology.url == "file:///stations.csv" && topology.companionName == "topology" && !topology.required)
        #expect(topology.companion?.url == "file:///map.zip" && topology.stationTable == nil)

        let facilities = try #require(try settings(.facilities, ["--stations-url", "file:///stations.csv", "--facilities-url", "file:///lifts.json", "--facilities-inventory-url", "file:///where.csv",
                                                                 "--facilities-stations-url", "file:///refs.csv"]))
        let inventory = try #require(facilities.source as? CompanionSource)
        #expect(inventory.url == "file:///lifts.json" && inventory.companionName == "inventory" && inventory.required)
        #expect(inventory.companion?.url == "file:///where.csv" && inventory.stationTable?.url == "file:///refs.csv")

        let plain = try #require(try settings(.stations, ["--stations-url", "file:///stations.csv", "--stations-interval", "90"]))
        #expect(!(plain.source is CompanionSource) && plain.source.url == "file:///stations.csv" && plain.interval == 90)
        let alerts = try #require(try settings(.alerts, ["--alerts-url", "file:///alerts.json", "--topology-url", "file:///map.zip"]))
        #expect(!(alerts.source is CompanionSource), "a station map goes with the stations, never the alerts")
    }

    /// Without a URL a cache is not configured, unless --demo gives it the embedded snapshot; the
    /// demo has no lift status, so the facilities stay not configured even then.
    @Test func withoutAURLOnlyTheDemoGivesASourceAndNeverForLiftStatus() throws {
        #expect(try settings(.alerts, ["--stations-url", "file:///stations.csv"]) == nil)
        #expect(try settings(.alerts, ["--demo"])?.source is DemoSource)
        #expect(try settings(.stations, ["--demo"])?.source is DemoSource)
        #expect(try settings(.facilities, ["--demo"]) == nil)
    }

    /// A config path names a regular file of text, or nothing at all: anything else is an error
    /// that says why, never an empty configuration.
    @Test func aConfigPathIsAFileAnAbsenceOrAnError() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/stopsheetd.conf"
        #expect(try Daemon.readConfigFile(path) == nil, "no file: an empty configuration")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("alerts-url = file:///a.json\n".utf8)))
        #expect(try Daemon.readConfigFile(path) == "alerts-url = file:///a.json\n")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("demo\0 = true\n".utf8)))
        #expect(throws: Config.Failure(description: "--config: \(path) contains a NUL byte (at byte 4)")) { try Daemon.readConfigFile(path) }
        #expect(throws: Config.Failure.self, "a directory") { try Daemon.readConfigFile(directory) }
        #expect(throws: Config.Failure.self, "a device that reads as empty") { try Daemon.readConfigFile("/dev/null") }
    }

    /// Under --notify-ready when-loaded STATUS= leads with what READY=1 still waits for, until the
    /// last configured cache loads; under when-listening it never does.
    @Test func theStatusLineSaysWhatReadyWaitsForOnlyWhenItWaits() {
        let rig = FreshnessTests.Rig()
        let line = { rig.store.serviceStatus(now: rig.store.clock.now()) }
        #expect(Daemon.statusLine(rig.store, .whenLoaded) == "waiting for alerts and stations to load: \(line())")
        #expect(Daemon.statusLine(rig.store, .whenListening) == line())
        rig.load(.stations, at: FreshnessTests.t0)
        #expect(Daemon.statusLine(rig.store, .whenLoaded) == "waiting for alerts to load: \(line())")
        rig.load(.alerts, at: FreshnessTests.t0)
        #expect(Daemon.statusLine(rig.store, .whenLoaded) == line())
    }
}
