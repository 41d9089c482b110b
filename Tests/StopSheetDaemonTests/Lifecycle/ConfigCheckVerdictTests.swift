import Foundation
import Testing
@testable import StopSheetDaemon

/// `stopsheetd --check-config`'s last line, as man/stopsheetd.8 and protocol.md show it: the
/// verdict, and the problems counted only when there are some (ConfigCheckIntegrationTests runs
/// the command itself).
@Suite struct ConfigCheckVerdictTests {
    @Test func aCleanConfigurationIsOKWithNothingCounted() {
        #expect(ConfigCheckCommand.verdict(refused: false, errors: 0, warnings: 0) == "stopsheetd: configuration OK")
    }

    @Test func problemsAreCountedInTheirNumber() {
        #expect(ConfigCheckCommand.verdict(refused: false, errors: 0, warnings: 1) == "stopsheetd: configuration OK (1 warning)")
        #expect(ConfigCheckCommand.verdict(refused: true, errors: 2, warnings: 0) == "stopsheetd: configuration has errors (2 errors)")
        #expect(ConfigCheckCommand.verdict(refused: true, errors: 1, warnings: 3)
            == "stopsheetd: configuration has errors (1 error, 3 warnings)")
    }

    /// The exit status is the verdict's, decided once: 0 for a configuration the daemon would
    /// start with, 1 for one it would refuse (the verdict's line goes to stderr beside it).
    @Test func theExitStatusIsTheVerdicts() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = ["--socket", directory + "/s.sock"]
        #expect(ConfigCheckCommand.run(arguments: ["--demo"] + socket, environment: [:], readFile: { _ in nil }) == 0)
        #expect(ConfigCheckCommand.run(arguments: ["--demo", "--max-batch", "many"] + socket, environment: [:], readFile: { _ in nil }) == 1)
        #expect(ConfigCheckCommand.run(arguments: socket, environment: [:], readFile: { _ in nil }) == 1, "no data source")
        // A file:// source not there yet is a warning, which refuses nothing; one that would not
        // load is an error, which does.
        let missing = ["--alerts-url", "file://" + directory + "/alerts.json"]
        #expect(ConfigCheckCommand.run(arguments: missing + socket, environment: [:], readFile: { _ in nil }) == 0)
        #expect(FileManager.default.createFile(atPath: directory + "/alerts.json", contents: Data("not alerts".utf8)))
        #expect(ConfigCheckCommand.run(arguments: missing + socket, environment: [:], readFile: { _ in nil }) == 1)
    }
}
