import Foundation
import Glibc
import Posix
import StopSheetDaemon

/// A running `Tests/Upstream/upstream.py` (see its header for the URL scheme).
///
/// Most tests share one (`Upstream.shared()`): every route is stateless or keyed, so tests stay
/// independent while paying Python's start-up once. The server also exits when its stdin closes,
/// so even a crashed test process leaves nothing behind.
final class Upstream: @unchecked Sendable {
    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    static let script = Fixtures.packageRoot + "/Tests/Upstream/upstream.py"
    static let fixturesRoot = Fixtures.path("upstream")

    private static let sharedInstance = Result { try Upstream() }
    static func shared() throws -> Upstream { try sharedInstance.get() }

    let port: Int
    private let process: ChildProcess
    private let stdinPipe: PipePair
    private let stopped = Locked(false)

    init(root: String = Upstream.fixturesRoot) throws {
        guard let python = Upstream.findOnPath("python3") else {
            throw StartFailure(description: "python3 not found on PATH")
        }
        let stdoutPipe = try PipePair()
        stdinPipe = try PipePair()
        process = try ChildProcess(python, [Upstream.script, "--port", "0", "--root", root, "--exit-on-stdin-eof"],
                                   environment: ProcessInfo.processInfo.environment, stdin: stdinPipe.read, stdout: stdoutPipe.write)
        stdinPipe.closeRead()
        stdoutPipe.closeWrite()

        let line = Upstream.readLine(stdoutPipe.read)
        guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)) else {
            process.signal(SIGKILL)
            process.wait()
            throw StartFailure(description: "upstream.py did not report its port (first line: \(line.debugDescription))")
        }
        self.port = port
    }

    deinit { stop() }

    /// Closing stdin is the server's own exit signal; SIGTERM and, failing that, SIGKILL back it
    /// up, so a stop never hangs a test run.
    func stop() {
        guard stopped.withLock({ stopped in defer { stopped = true }; return !stopped }) else { return }
        stdinPipe.closeWrite()
        guard process.isRunning else { return }
        process.signal(SIGTERM)
        if process.wait(seconds: 2) != nil { return }
        process.signal(SIGKILL)
        process.wait()
    }

    func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)\(path.hasPrefix("/") ? path : "/" + path)"
    }

    /// What `GET /dyn/<key>` answers next.
    /// `headers` go out with the answer (`Retry-After`); `requireHeaders` must come with the
    /// request, each with exactly its value, or the answer is 401.
    /// `fixture`: serve that file under the upstream's root instead of `body` (a zip).
    func set(key: String, status: Int = 200, body: String = "", fixture: String? = nil, delayMs: Int = 0, etag: Bool = true,
             headers: [String: String] = [:], requireHeaders: [String: String] = [:]) throws {
        var spec: [String: Any] = ["status": status, "body": body, "delayMs": delayMs, "etag": etag,
                                   "headers": headers, "requireHeaders": requireHeaders]
        if let fixture { spec["fixture"] = fixture }
        let json = try JSONSerialization.data(withJSONObject: spec)
        let (code, reply) = try request("PUT", "/set/\(key)", body: [UInt8](json))
        guard code == 204 else { throw StartFailure(description: "PUT /set/\(key): HTTP \(code) \(String(decoding: reply, as: UTF8.self))") }
    }

    /// How many times `GET /dyn/<key>` has been requested; with `above`, once that is more than
    /// `above` (the upstream answers when the fetch arrives), or as it is after `timeout` seconds.
    func hits(key: String, above: Int? = nil, timeout: Double = patience) throws -> Int {
        let (code, reply) = try request("GET", "/hits/\(key)" + (above.map { "?above=\($0)&wait=\(timeout)" } ?? ""))
        guard code == 200, let count = Int(String(decoding: reply, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw StartFailure(description: "GET /hits/\(key): HTTP \(code)")
        }
        return count
    }

    /// A deliberately separate, dumb HTTP/1.1 client (one request per connection), so the control
    /// channel does not depend on the code under test.
    func request(_ method: String, _ path: String, body: [UInt8] = []) throws -> (status: Int, body: [UInt8]) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StartFailure(description: "socket: \(Errno.current)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw StartFailure(description: "connect: \(Errno.current)") }

        var message = Array("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8)
        message += body
        var sent = 0
        while sent < message.count {
            let n = message[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw StartFailure(description: "send: \(Errno.current)") }
            sent += n
        }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            reply += buffer[..<n]
        }
        let separator = Array("\r\n\r\n".utf8)
        guard let end = reply.indices.first(where: { reply[$0...].starts(with: separator) }) else {
            throw StartFailure(description: "\(method) \(path): malformed reply")
        }
        let statusLine = String(decoding: reply[..<(reply.firstIndex(of: 0x0D) ?? end)], as: UTF8.self)
        let status = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, Array(reply[(end + 4)...]))
    }

    private static func findOnPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    private static func readLine(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 256 {
            let n = read(fd, &byte, 1)
            if n < 0, errno == EINTR { continue }
            if n <= 0 || byte == 0x0A { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
