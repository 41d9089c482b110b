import Testing
@testable import StopSheetDaemon

/// A config file's keys are what systemd's `EnvironmentFile=` takes as a variable name: ASCII
/// letters of either case, digits and `_`, not starting with a digit. A line whose key is
/// anything else is a warning at its line, and sets nothing.
@Suite struct ConfigFileTests {
    @Test func keysAreWhatSystemdTakesAsVariableNames() {
        let text = """
            lower_case=1
            Mixed9_=2
            _x=3
            A1=4
            9LIVES=5
            A-B=6
            ÉTÉ=7
            A.B=8
            """
        let file = ConfigFile(path: "/etc/x.conf", text: text)
        #expect(file.settings.map(\.key) == ["lower_case", "Mixed9_", "_x", "A1"])
        #expect(file.problems.map(\.description) == ["9LIVES", "A-B", "ÉTÉ", "A.B"].enumerated().map { index, key in
            "/etc/x.conf:\(index + 5): warning: '\(key)' is not a variable name, line ignored"
        })
    }
}
