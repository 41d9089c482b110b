import Glibc
import Testing
@testable import StopSheetDaemon

/// The environment the configuration reads (`STOPSHEETD_…` settings): every variable, its value
/// whole after the first `=`, an empty value kept.
@Suite struct ProcessEnvironmentTests {
    @Test func everyVariableWithItsWholeValue() {
        let (name, empty) = ("STOPSHEETD_TEST_ENVIRONMENT_\(getpid())", "STOPSHEETD_TEST_EMPTY_\(getpid())")
        setenv(name, "a=b=c", 1)
        setenv(empty, "", 1)
        defer { unsetenv(name); unsetenv(empty) }
        let environment = processEnvironment()
        #expect(environment[name] == "a=b=c" && environment[empty] == "")
        var count = 0
        while environ[count] != nil { count += 1 }
        #expect(environment.count == count, "one entry per variable, the last one included")
    }
}
