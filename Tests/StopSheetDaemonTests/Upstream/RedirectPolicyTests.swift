import Foundation
import Glibc
import StopSheetDaemon
import Testing

/// Issue 10's redirect decision: a redirect may lead to another host, never to another port of
/// the upstream's address or to a loopback address other than the upstream itself, so a
/// compromised upstream cannot make the daemon query local services and serve what they say.
@Suite struct RedirectPolicyTests {
    /// A TCP port on 127.0.0.1 that accepts connections (into its backlog) and never answers:
    /// a local service the daemon must not be led to.
    final class LocalService {
        let fd: Int32
        let port: Int

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.fd = fd
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    bind(fd, address, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, address, &length) == 0
                }
            }
            guard bound else { throw TestFailure("cannot listen on 127.0.0.1: \(errno)") }
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(fd) }
    }

    @Test func aRedirectToAnotherLocalPortIsRefused() throws {
        let upstream = try Upstream.shared()
        let service = try LocalService()
        let target = "http://127.0.0.1:\(service.port)/secret".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let source = HTTPSource(url: upstream.url("/redirect?to=\(target)&n=1"), options: HTTPOptions(version: "test", timeoutMilliseconds: 5_000))
        let refused = try failure(source.fetch(validators: nil))
        #expect(refused.message == "redirect refused: it leads to another port (\(service.port)) of the upstream's address", "\(refused)")
        // The same chain within the upstream itself is followed as before.
        let within = HTTPSource(url: upstream.url("/redirect?to=/fixture/stops.csv&n=2"), options: HTTPOptions(version: "test", timeoutMilliseconds: 5_000))
        #expect(throws: Never.self) { try body(within.fetch(validators: nil)) }
    }
}

/// The redirect policy in the real daemon, across a reload.
@Suite struct RedirectPolicyIntegrationTests {
    /// Through the real binary: the refusal is the refresh's `lastError`, the last good data stays.
    @Test func theDaemonReportsARefusedRedirectInHealth() throws {
        let upstream = try Upstream.shared()
        let service = try RedirectPolicyTests.LocalService()
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/stopsheetd.conf"
        func configure(_ alertsURL: String) throws {
            try "STOPSHEETD_ALERTS_URL=\(alertsURL)\nSTOPSHEETD_STATIONS_URL=file://\(Fixtures.path("L_stops_2021.csv"))\n"
                .write(toFile: config, atomically: true, encoding: .utf8)
        }
        try configure(upstream.url("/fixture/alerts.json"))
        let daemon = try DaemonProcess(["--config", config])
        let target = "http://127.0.0.1:\(service.port)/".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        try configure(upstream.url("/redirect?to=\(target)&n=1"))
        daemon.process.signal(SIGHUP)
        #expect(daemon.notifications.waitFor({ $0.contains("RELOADING=1") }, timeout: patience) != nil)
        #expect(daemon.notifications.waitFor({ $0.contains("READY=1") }, timeout: patience) != nil)
        let alerts = try daemon.result("health")["alerts"]
        #expect(alerts?["lastError"]?.stringValue?.hasPrefix("redirect refused: it leads to another port") == true, "\(String(describing: alerts))")
        #expect(alerts?["loaded"] == true)
    }
}
