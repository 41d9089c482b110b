#if canImport(Glibc)
import Glibc
#endif
import StopSheetCore

/// A small blocking Unix-socket client for tests: one connection, line at a time. Every wait has
/// an upper bound, so a broken server fails a test instead of hanging the suite.
final class TestClient {
    enum Failure: Error, CustomStringConvertible {
        case connect(path: String, errno: Int32)
        case send
        case noAnswer(to: String)
        case badAnswer(String, JSONParser.Failure)

        var description: String {
            switch self {
            case .connect(let path, let code): return "connect(\(path)): \(String(cString: strerror(code)))"
            case .send: return "send failed"
            case .noAnswer(let request): return "no answer to \(request.prefix(200))"
            case .badAnswer(let line, let error): return "unparsable answer \(line.prefix(200)): \(error)"
            }
        }
    }

    let fd: Int32
    private var buffer: [UInt8] = []
    /// The server closed or reset the connection.
    private var closed = false
    /// We closed our descriptor.
    private var closedFD = false

    init(path: String, sendTimeout: Double = 10) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure.connect(path: path, errno: errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8.prefix($0.count - 1))) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw Failure.connect(path: path, errno: code)
        }
        // A server that stops reading makes send fail after this long instead of blocking forever.
        var timeout = timeval(tv_sec: Int(sendTimeout), tv_usec: Int((sendTimeout - sendTimeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close() }

    /// Sends everything; false when the server closed, reset, or stopped reading past the timeout.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                offset += count
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    @discardableResult
    func send(line: String) -> Bool { send(Array((line + "\n").utf8)) }

    /// Sends what the socket takes right now without blocking; the number of bytes taken.
    func sendAvailable(_ bytes: [UInt8]) -> Int {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if count > 0 { offset += count } else if count < 0, errno == EINTR { continue } else { break }
        }
        return offset
    }

    /// The next line without its newline; nil on end of stream, error, or after `timeout` seconds.
    func readLine(timeout: Double = 10) -> String? {
        let deadline = Self.now() + timeout
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            guard fill(until: deadline) else { return nil }
        }
    }

    /// Sends one request line and parses the answer line.
    func request(_ json: String, timeout: Double = 10) throws -> JSON {
        guard send(line: json) else { throw Failure.send }
        guard let line = readLine(timeout: timeout) else { throw Failure.noAnswer(to: json) }
        do { return try JSONParser.parse(line) } catch { throw Failure.badAnswer(line, error) }
    }

    /// Reads and discards until the server closes the connection; false if it is still open
    /// after `timeout` seconds.
    func waitForClose(timeout: Double = 10) -> Bool {
        let deadline = Self.now() + timeout
        buffer.removeAll()
        while !closed {
            guard fill(until: deadline) else { return closed }
            buffer.removeAll()
        }
        return true
    }

    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    func close() {
        guard fd >= 0, !closedFD else { return }
        closedFD = true
        Glibc.close(fd)
    }

    /// Reads what arrives before `deadline`; false on timeout, end of stream or error.
    private func fill(until deadline: Double) -> Bool {
        guard !closed, !closedFD else { return false }
        while true {
            let remaining = deadline - Self.now()
            guard remaining > 0 else { return false }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining * 1000, 60_000).rounded(.up)))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return false }
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                return true
            }
            if count < 0, errno == EINTR { continue }
            closed = true  // EOF, ECONNRESET: either way the server is gone
            return false
        }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
