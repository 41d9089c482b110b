#if canImport(Glibc)
import Glibc
#endif
import Posix

/// One blocking connection to a Unix stream socket, read a line at a time. Every wait has a
/// deadline, so a daemon that stops answering fails the caller instead of hanging it.
/// Owned by one thread at a time.
public final class LineConnection {
    /// The connected socket, for callers that need a call this type does not make (`shutdown`).
    public var fd: Int32 { socket.raw }
    /// Closed once, by `close()` or when this goes: a failed connect once closed it in `init`
    /// and again in `deinit`, which runs for an object whose every property was set.
    private let socket: Descriptor
    public let maxLineBytes: Int
    /// Received bytes not yet returned as a line; at most `maxLineBytes` plus one read.
    private var buffer: [UInt8] = []
    private var closedByPeer = false

    /// Connects to `socketPath`. A send that blocks longer than `sendTimeout` fails (this also
    /// bounds the connect to a daemon whose accept backlog is full).
    public init(socketPath: String, sendTimeout: Duration, maxLineBytes: Int = 64 << 20) throws(ClientError) {
        let address: UnixSocketAddress
        do throws(UnixSocketPathError) { address = try UnixSocketAddress(path: socketPath) } catch {
            throw .invalidSocketPath(error)
        }
        do throws(Errno) { socket = Descriptor(adopting: try UnixSocket.open(.stream)) } catch { throw .socket(error) }
        self.maxLineBytes = maxLineBytes
        var timeout = timeval(sendTimeout)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        do throws(Errno) { try UnixSocket.connect(fd, to: address) } catch {
            throw .cannotConnect(path: socketPath, error)
        }
    }

    /// Sends all of `bytes` (no SIGPIPE when the daemon has gone).
    public func send(_ bytes: [UInt8]) throws(ClientError) {
        // Closed: its number may be another socket's by now.
        guard socket.isOpen else { throw .send(Errno(EBADF)) }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                offset += sent
                continue
            }
            let error = Errno.current
            if error.code == EINTR { continue }
            throw error.code == EAGAIN || error.code == EWOULDBLOCK ? .timedOut : .send(error)
        }
    }

    /// The next line without its newline.
    public func readLine(timeout: Duration) throws(ClientError) -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        var searched = 0
        while true {
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            searched = buffer.count
            guard buffer.count <= maxLineBytes else { throw .answerTooLong(limit: maxLineBytes) }
            try receive(until: deadline)
        }
    }

    /// Reads and discards until the daemon closes the connection; false if it is still open at
    /// the deadline.
    public func waitForClose(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        buffer.removeAll()
        while !closedByPeer {
            do throws(ClientError) { try receive(until: deadline) } catch { return closedByPeer }
            buffer.removeAll()
        }
        return true
    }

    public func close() { socket.close() }

    /// Appends what arrives before `deadline`; a reset counts as the daemon closing.
    private func receive(until deadline: ContinuousClock.Instant) throws(ClientError) {
        guard !closedByPeer, socket.isOpen else { throw .closedByDaemon }
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw .timedOut }
            let milliseconds = min(remaining, .seconds(60)).components
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(milliseconds.seconds * 1000 + milliseconds.attoseconds / 1_000_000_000_000_000 + 1))
            if ready < 0 {
                if errno == EINTR { continue }
                throw .receive(.current)
            }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                return
            }
            let error = Errno.current
            if count < 0, error.code == EINTR { continue }
            // End of stream, a reset or a failed read: nothing more will arrive either way.
            closedByPeer = true
            throw count == 0 || error.code == ECONNRESET ? .closedByDaemon : .receive(error)
        }
    }
}

extension timeval {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    }
}
