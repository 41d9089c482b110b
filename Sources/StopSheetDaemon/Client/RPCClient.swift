import Glibc
import StopSheetCore

/// A blocking JSON-RPC client over the daemon's Unix socket, for `stopsheetctl` and scripts.
public final class RPCClient {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private let fd: Int32
    private var buffer: [UInt8] = []
    private var nextID = 1

    public init(socketPath: String, timeoutSeconds: Double) throws(Failure) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: Int(timeoutSeconds), tv_usec: Int((timeoutSeconds - Double(Int(timeoutSeconds))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(socketPath.utf8)
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw Failure(description: "socket path too long: \(socketPath)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: path) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "cannot connect to \(socketPath): \(reason)")
        }
    }

    deinit { close(fd) }

    /// Sends one request and returns the whole response object.
    public func call(_ method: String, params: JSON?) throws(Failure) -> JSON {
        var request = JSONObject([("jsonrpc", "2.0"), ("id", .int(nextID)), ("method", .string(method))])
        nextID += 1
        if let params { request.append("params", params) }
        try send(JSON.object(request).encoded + [0x0A])
        let line = try readLine()
        do { return try JSONParser.parse(line) } catch { throw Failure(description: "unreadable answer: \(error)") }
    }

    private func send(_ bytes: [UInt8]) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    private func readLine() throws(Failure) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { throw Failure(description: "no answer within the timeout") }
            guard count > 0 else { throw Failure(description: count == 0 ? "the daemon closed the connection" : "recv: \(String(cString: strerror(errno)))") }
            buffer += chunk[0..<count]
        }
    }
}
