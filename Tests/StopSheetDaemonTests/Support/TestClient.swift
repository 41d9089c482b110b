#if canImport(Glibc)
import Glibc
#endif
import StopSheetClient
import StopSheetCore

/// The product's `LineConnection` with what tests need on top: raw lines (malformed ones too),
/// non-blocking sends, half-close, and answers as optionals. Every wait has an upper bound, so a
/// broken server fails a test instead of hanging the suite. Owned by the test's thread.
final class TestClient {
    enum Failure: Error, CustomStringConvertible {
        case connect(ClientError)
        case send
        case noAnswer(to: String, why: String)
        case badAnswer(String, JSONParser.Failure)

        var description: String {
            switch self {
            case .connect(let error): return "\(error)"
            case .send: return "send failed"
            case .noAnswer(let request, let why): return "no answer to \(request.prefix(200)): \(why)"
            case .badAnswer(let line, let error): return "unparsable answer \(line.prefix(200)): \(error)"
            }
        }
    }

    let connection: LineConnection
    private var fd: Int32 { connection.fd }

    /// A server that stops reading makes `send` fail after `sendTimeout` seconds instead of
    /// blocking forever.
    init(path: String, sendTimeout: Double = patience) throws {
        do { connection = try LineConnection(socketPath: path, sendTimeout: .seconds(sendTimeout)) } catch {
            throw Failure.connect(error)
        }
    }

    /// Sends everything; false when the server closed, reset, or stopped reading past the timeout.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool { (try? connection.send(bytes)) != nil }

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

    /// The next line without its newline; nil on end of stream, error, or after `timeout` seconds,
    /// with `lastReadFailure` saying which.
    func readLine(timeout: Double = patience) -> String? {
        let started = ContinuousClock.now
        do {
            lastReadFailure = nil
            let line = String(decoding: try connection.readLine(timeout: .seconds(timeout)), as: UTF8.self)
            AnswerLog.line(line)
            return line
        } catch .timedOut {
            lastReadFailure = "nothing after \(ContinuousClock.now - started)"
        } catch {
            lastReadFailure = "\(error) after \(ContinuousClock.now - started)"
        }
        return nil
    }

    /// Why the last `readLine` returned nil, for a failure message.
    private(set) var lastReadFailure: String?

    /// Sends one request line and parses the answer line.
    func request(_ json: String, timeout: Double = patience) throws -> JSON {
        guard send(line: json) else { throw Failure.send }
        guard let line = readLine(timeout: timeout) else { throw Failure.noAnswer(to: json, why: lastReadFailure ?? "?") }
        let answer: JSON
        do { answer = try JSONParser.parse(line) } catch { throw Failure.badAnswer(line, error) }
        AnswerLog.answer(answer, to: json)
        return answer
    }

    /// Reads and discards until the server closes the connection; false if it is still open
    /// after `timeout` seconds.
    func waitForClose(timeout: Double = patience) -> Bool { connection.waitForClose(timeout: .seconds(timeout)) }

    /// Waits up to `timeout` seconds for the server to close this connection, without reading
    /// (a client that reads is no longer stuck): true once it has. The kernel reports the
    /// close (POLLRDHUP, POLLHUP) with the answers still unread, and the server counts a close
    /// before it closes, so its counters already show it when this returns.
    func waitForPeerClose(timeout: Double) -> Bool {
        let peerClosed: Int16 = 0x2000  // POLLRDHUP, which Glibc's module does not export
        var entry = pollfd(fd: fd, events: peerClosed, revents: 0)
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        while true {
            let left = (deadline - ContinuousClock.now).components
            let milliseconds = max(0, left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000)
            entry.revents = 0
            let ready = poll(&entry, 1, Int32(clamping: milliseconds))
            if ready < 0, errno == EINTR { continue }
            return ready > 0 && entry.revents & (peerClosed | Int16(POLLHUP) | Int16(POLLERR)) != 0
        }
    }

    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    func close() { connection.close() }
}
