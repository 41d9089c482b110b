import Foundation
import Glibc
import Posix
import StopSheetClient
import StopSheetDaemon
import Testing

/// A descriptor is closed once (issue 45). `ServerTests.clientThatNeverReadsIsPausedThenClosedWhileOthersAreServed`
/// once saw a client's echo end in a clean EOF 1.5 ms after it was sent: `LineConnection.init`
/// closed its socket when the connect failed, and then its `deinit` closed the same number again
/// (Swift runs `deinit` for an object whose every property was set before `init` threw).
/// `ServerTests.stopFinishesInFlightRequestsThenReturns` connects to a stopped server on purpose,
/// beside the other tests of its process: a socket accepted or opened by another test between the
/// two closes was closed under it.
@Suite struct DescriptorOwnershipTests {
    /// Every failed connect closes its socket exactly once, while another thread's descriptors
    /// stay open. Under the old code the second close lands on a number the other thread was just
    /// given (the window is the `throw` between the two closes): the pairs it checks break.
    @Test func aFailedConnectClosesOnlyItsOwnSocket() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Bound, never listening: connect fails at once with ECONNREFUSED.
        let path = directory + "/refusing.sock"
        let refusing = try boundUnixSocket(at: path)
        defer { close(refusing) }
        let stop = Locked(false)
        let broken = Locked<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        Thread {
            defer { finished.signal() }
            var round = 0
            while !stop.withLock({ $0 }) {
                round += 1
                var fds: [Int32] = [-1, -1]
                guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { continue }
                let pair = (Descriptor(adopting: fds[0]), Descriptor(adopting: fds[1]))
                var byte: UInt8 = 42
                let sent = send(pair.0.raw, &byte, 1, Int32(MSG_NOSIGNAL))
                byte = 0
                let received = recv(pair.1.raw, &byte, 1, Int32(MSG_DONTWAIT))
                if sent != 1 || received != 1 || byte != 42 {
                    let problem = String(cString: strerror(errno))
                    broken.withLock { $0.append("round \(round): sent \(sent), received \(received) (\(problem))") }
                }
            }
        }.start()
        for _ in 0..<20_000 {
            #expect(throws: ClientError.self) { try LineConnection(socketPath: path, sendTimeout: .seconds(1)) }
        }
        stop.withLock { $0 = true }
        #expect(finished.wait(timeout: .now() + patience) == .success)
        #expect(broken.withLock { $0 }.isEmpty, "a stranger's socket was closed: \(broken.withLock { $0 }.prefix(5))")
    }

    /// A second `close()` closes nothing, though the number may already be another descriptor's
    /// (the lowest free number is the next one given out).
    @Test func aSecondCloseClosesNothing() throws {
        let first = Descriptor(adopting: try EventFD.open())
        first.close()
        let second = Descriptor(adopting: try EventFD.open())
        first.close()
        #expect(fcntl(second.raw, F_GETFD) != -1, "descriptor \(second.raw) was closed by the first's second close")
        #expect(!first.isOpen && second.isOpen)
    }

    /// One owner per descriptor, by construction: outside `Descriptor` (Sources/Posix), no code of
    /// the daemon, the client, Posix or the test support calls close(2) but a `defer` in the scope
    /// that opened the descriptor. A descriptor kept longer is held by a `Descriptor`.
    @Test func onlyDescriptorAndScopedDefersClose() throws {
        let root = Fixtures.packageRoot
        let folders = ["Sources", "Tests/StopSheetDaemonTests/Support", "Tests/StopSheetTestSupport"]
        // close( or Glibc.close( as a call of its own (not a method, not a definition), with one argument.
        let call = /(^|[^A-Za-z0-9_.])(Glibc\.)?close\(([^,()]|\([^()]*\))+\)/
        var found: [String] = []
        for folder in folders {
            let base = URL(fileURLWithPath: root + "/" + folder)
            let files = try #require(FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil))
            for case let url as URL in files where url.pathExtension == "swift" && url.lastPathComponent != "Descriptor.swift" {
                let text = try String(contentsOf: url, encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    // The code before any comment (a comment may name close(2)).
                    let code = (line.firstRange(of: "//").map { line[..<$0.lowerBound] } ?? line).drop(while: { $0 == " " })
                    guard code.contains(call), !code.hasPrefix("defer {") else { continue }
                    found.append("\(url.path.dropFirst(root.count + 1)):\(number + 1): \(code)")
                }
            }
        }
        #expect(found.isEmpty, "close(2) outside Descriptor and a scope's defer:\n\(found.joined(separator: "\n"))")
    }
}

/// The shipped client under strace: a connect that fails closes its socket once. The old
/// `LineConnection` showed `close(3) = 0` then `close(3) = -1 EBADF` here, every run.
@Suite struct DescriptorOwnershipIntegrationTests {
    @Test func stopsheetctlClosesTheSocketOfAFailedConnectOnce() throws {
        guard let strace = installedStrace() else { return }
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/trace"
        // stopsheetctl fails, as it must with nobody there: the trace is what is read.
        _ = try runProcess(strace, ["-f", "-qq", "-o", trace, "-e", "trace=socket,connect,close",
                                          DaemonProcess.ctlBinary, "--socket", directory + "/nobody.sock", "health"])
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.contains("connect(") && $0.contains("ENOENT") }, "the connect failed: \(lines)")
        let twice = lines.filter { $0.contains("close(") && $0.contains("EBADF") }
        #expect(twice.isEmpty, "a descriptor closed twice: \(twice)")
    }
}
