import Foundation
import Glibc
import StopSheetCore
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// The daemon run in this process as `stopsheetd` runs it (`Daemon.main`), on the embedded demo:
/// READY=1 once loaded under `--notify-ready when-loaded`, the caches' sources where the store
/// says them, STATUS= kept current and the watchdog fed from the loop's tick, a reload that takes
/// a changed config file, and a stop that exits 0 and removes the socket it bound. The integration
/// suites show the same through the binary; here `make check` states it. Serialized: it sets
/// NOTIFY_SOCKET and WATCHDOG_USEC, which the daemon reads from the process environment.
@Suite(.serialized) struct DaemonRunTests {
    /// The next datagram that `wanted` accepts, skipping the others; nil if none comes within
    /// `patience` (the others, such as STATUS= every second, do not extend the wait).
    private func next(_ receiver: NotifyReceiver, _ wanted: ([String: String]) -> Bool) -> [String: String]? {
        let deadline = SystemClock.monotonicMilliseconds() + Int64(patience * 1000)
        while case let left = deadline - SystemClock.monotonicMilliseconds(), left > 0, let datagram = receiver.receive(timeoutMs: Int32(left)) {
            if wanted(fields(datagram)) { return fields(datagram) }
        }
        return nil
    }

    /// Runs `Daemon.main` with `arguments` on a thread of its own: the daemon once built, and a
    /// wait for its exit status.
    private func start(_ arguments: [String]) -> (daemon: () -> Daemon?, exit: () -> Int32?) {
        let built = Locked<Daemon?>(nil)
        let exitStatus = Locked<Int32?>(nil)
        let exited = DispatchSemaphore(value: 0)
        let thread = Thread {
            let status = Daemon.main(arguments: arguments, environment: [:]) { daemon in built.withLock { $0 = daemon } }
            exitStatus.withLock { $0 = status }
            exited.signal()
        }
        thread.stackSize = 4 << 20
        thread.start()
        return ({ built.withLock { $0 } }, { exited.wait(timeout: .now() + patience) == .success ? exitStatus.withLock { $0 } : nil })
    }

    /// Under `--notify-ready when-loaded`, READY=1 waits for a source that fails at first, and
    /// comes with the store change that completes the first loads: the alerts file, missing at
    /// the start, put in place while the daemon retries it.
    @Test func readyWaitsForTheFirstLoadsAndComesWithTheLastOfThem() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (socket, alerts) = (directory + "/s.sock", directory + "/alerts.json")
        let receiver = try NotifyReceiver()
        setenv("NOTIFY_SOCKET", receiver.path, 1)
        defer { unsetenv("NOTIFY_SOCKET") }
        let run = start(["--socket", socket, "--notify-ready", "when-loaded", "--alerts-url", "file://" + alerts,
                         "--stations-url", "file://" + Fixtures.path("L_stops_2021.csv")])
        let waiting = next(receiver) { $0["STATUS"]?.hasPrefix("waiting for alerts to load") == true || $0["READY"] != nil }
        #expect(waiting?["READY"] == nil, "no READY=1 while the alerts have not loaded: \(waiting ?? [:])")
        #expect(FileManager.default.createFile(atPath: alerts, contents: Data(Fixtures.bytes("alerts_2015-02-14.DERIVED.json"))))
        let ready = next(receiver) { $0["READY"] == "1" }
        #expect(ready?["STATUS"]?.hasPrefix("waiting for") == false, "\(ready ?? [:])")
        run.daemon()?.stop(reason: "by the test")
        #expect(run.exit() == 0)
    }

    @Test func startsReadyServesReloadsAndStopsCleanly() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (socket, configFile) = (directory + "/s.sock", directory + "/stopsheetd.conf")
        #expect(FileManager.default.createFile(atPath: configFile, contents: Data("STOPSHEETD_ALERTS_INTERVAL=600\n".utf8)))
        let receiver = try NotifyReceiver()
        setenv("NOTIFY_SOCKET", receiver.path, 1)
        setenv("WATCHDOG_USEC", "400000", 1)
        unsetenv("WATCHDOG_PID")
        defer { unsetenv("NOTIFY_SOCKET"); unsetenv("WATCHDOG_USEC") }

        let run = start(["--demo", "--socket", socket, "--config", configFile, "--notify-ready", "when-loaded"])

        let ready = next(receiver) { $0["READY"] == "1" }
        #expect(ready?["STATUS"]?.hasPrefix("waiting for") == false, "READY=1 once loaded, its status the store's: \(ready ?? [:])")
        let daemon = try #require(run.daemon())

        let client = try TestClient(path: socket)
        let health = try client.request(#"{"jsonrpc":"2.0","id":1,"method":"health"}"#)["result"]
        #expect(health?["alerts"]?["source"] == "demo:alerts" && health?["stations"]?["source"] == "demo:stations", "\(health ?? .null)")
        #expect(health?["facilities"]?["configured"] == false, "the demo has no lift status")
        #expect(try client.request(#"{"jsonrpc":"2.0","id":2,"method":"stopSheet","params":{"stopId":"40380"}}"#)["result"]?["stationId"] == "40380")

        #expect(next(receiver) { $0["WATCHDOG"] == "1" } != nil, "the watchdog fed from the loop's tick")
        #expect(next(receiver) { $0["STATUS"] != nil && $0["READY"] == nil } != nil, "STATUS= kept current while running (the data's age moves)")

        #expect(FileManager.default.createFile(atPath: configFile, contents: Data("STOPSHEETD_ALERTS_INTERVAL=900\n".utf8)))
        daemon.reload()
        #expect(daemon.config.withLock { $0.alertsInterval } == 900, "the reload took the config file as it is now")
        #expect(next(receiver) { $0["RELOADING"] == "1" } != nil && next(receiver) { $0["READY"] == "1" } != nil)

        daemon.stop(reason: "by the test")
        #expect(run.exit() == 0, "a stop asked for is a clean exit")
        #expect(access(socket, F_OK) != 0, "the socket it bound is removed at exit")
        #expect(client.waitForClose())
        #expect(next(receiver) { $0["STOPPING"] == "1" } != nil)
    }
}
