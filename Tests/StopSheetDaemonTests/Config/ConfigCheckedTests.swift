import Testing
@testable import StopSheetDaemon

/// What a check found, sorted by severity: `errors` are what refuse the start, `warnings` the
/// rest, each problem in exactly one of them, in the order found.
@Suite struct ConfigCheckedTests {
    @Test func eachProblemIsAnErrorOrAWarning() {
        let path = "/etc/stopsheetd/stopsheetd.conf"
        let text = "STOPSHEETD_DEMO=true\nSTOPSHEETD_FROBNICATE=1\nSTOPSHEETD_MAX_BATCH=many\nnot a setting\n"
        let checked = Config.check(arguments: ["--config", path], environment: [:], readFile: { $0 == path ? text : nil })
        #expect(checked.action == nil)
        #expect(checked.errors.map(\.line) == [3])
        #expect(checked.warnings.map(\.description) == [
            "\(path):2: warning: unknown key STOPSHEETD_FROBNICATE, ignored",
            "\(path):4: warning: not a KEY=value line, ignored: 'not a setting'",
        ])
    }
}
