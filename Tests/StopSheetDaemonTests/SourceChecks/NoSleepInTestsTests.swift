import Foundation
import Testing

/// The tests wait on events, not on time (issue 31): every sleep left in Tests/ is one of those
/// below, each with its reason, and a new one fails here until it is either made a wait on an
/// event or added with a reason why no event exists. A sleep is `sleep(`, `usleep(`,
/// `nanosleep(`, `Thread.sleep`, `time.sleep(` or a shell `sleep N`.
@Suite struct NoSleepInTestsTests {
    /// File (from the package root) → how many sleeps it holds, and why none of them is a wait.
    static let allowed: [String: (count: Int, why: String)] = [
        "Tests/StopSheetDaemonTests/Daemon/AnyAgencyIntegrationTests.swift":
            (1, "the slow feed under test: the round must last 300 ms, and its log must say so"),
        "Tests/Upstream/upstream.py":
            (2, "the hanging and the slow upstream a test asks for (/hang, delayMs)"),
        "Tests/Fleet/nginx_fleet.py":
            (1, "the window in which 20 daemons poll the cache: its length is what is measured"),
        "Tests/Systemd/protocol_test.py":
            (1, "the window in which a SIGSTOPped daemon must send no WATCHDOG=1: nothing to wait for"),
        "Tests/Systemd/sdtest.py":
            (1, "wait_for, for STATUS= as systemctl shows it: a unit property with no event in the root"),
    ]

    @Test func everySleepInTestsIsOneWithAReason() throws {
        let sleep = /(^|[^A-Za-z_.])(u|nano)?sleep\(|Thread\.sleep|time\.sleep\(|^\s*sleep\s+[0-9$]/
        let root = Fixtures.packageRoot
        let tests = URL(fileURLWithPath: root + "/Tests")
        let sources = try #require(FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil))
        var found: [String: [String]] = [:]
        for case let url as URL in sources where ["swift", "py", "sh"].contains(url.pathExtension) || url.lastPathComponent == "run" {
            let relative = String(url.path.dropFirst(root.count + 1))
            guard !relative.hasPrefix("Tests/Fixtures/"), let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(sleep) {
                let code = line.drop(while: { $0 == " " })
                if code.hasPrefix("//") || code.hasPrefix("#") { continue }  // a comment that names one
                found[relative, default: []].append("\(number + 1): \(code)")
            }
        }
        for (file, lines) in found.sorted(by: { $0.key < $1.key }) {
            let expected = Self.allowed[file]?.count ?? 0
            #expect(lines.count == expected, "\(file) has \(lines.count) sleeps, \(expected) allowed: \(lines.joined(separator: "; "))")
        }
        for (file, allowance) in Self.allowed where found[file] == nil {
            Issue.record("\(file) is allowed \(allowance.count) sleeps and has none: drop it from the list")
        }
    }
}
