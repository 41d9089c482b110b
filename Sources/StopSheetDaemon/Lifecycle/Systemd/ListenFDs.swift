import CSystemd
import Glibc

/// Why socket activation handed us something we cannot serve on.
public struct ListenFDsError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

/// Listening sockets passed by systemd (`stopsheetd.socket`) or `systemd-socket-activate`.
public enum ListenFDs {
    /// The passed listeners, or `[]` when the daemon was not socket-activated (then it binds
    /// `--socket` itself). The `LISTEN_*` variables are unset so nothing we spawn inherits them.
    ///
    /// Each descriptor must be a listening Unix stream socket: a `ListenStream=` port, a datagram
    /// socket or `Accept=yes` would otherwise fail much later and less clearly, in `accept`.
    /// Returned descriptors are non-blocking and close-on-exec.
    public static func take() throws -> [Int32] {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
        let count = sd_listen_fds_with_names(1, &names)
        defer { freeNames(names, count: count) }
        if count < 0 {
            throw ListenFDsError(description: "socket activation: cannot read LISTEN_FDS/LISTEN_PID: \(Errno(-count))")
        }
        let start = csystemd_listen_fds_start()
        var fds: [Int32] = []
        for index in 0..<Int(count) {
            let fd = start + Int32(index)
            let name = names.flatMap { $0[index] }.map { String(cString: $0) } ?? "unknown"
            try adopt(fd, name: name)
            fds.append(fd)
        }
        return fds
    }

    /// Checks one passed descriptor and makes it non-blocking and close-on-exec.
    static func adopt(_ fd: Int32, name: String) throws {
        let isUnixListener = sd_is_socket_unix(fd, Int32(SOCK_STREAM.rawValue), 1, nil, 0)
        if isUnixListener < 0 {
            throw ListenFDsError(description: "socket activation: fd \(fd) (\(name)): \(Errno(-isUnixListener))")
        }
        if isUnixListener == 0 {
            throw ListenFDsError(description: "socket activation: fd \(fd) (\(name)) is \(describe(fd)), "
                + "not a listening Unix stream socket; use ListenStream=/path with Accept=no")
        }
        do throws(Errno) { try DescriptorFlags.setNonBlockingAndCloseOnExec(fd) } catch {
            throw ListenFDsError(description: "socket activation: fd \(fd) (\(name)): fcntl: \(error)")
        }
    }

    /// What the bad descriptor is, so the message points at the misconfigured line of the unit.
    private static func describe(_ fd: Int32) -> String {
        var type: Int32 = 0
        var typeLength = socklen_t(MemoryLayout<Int32>.size)
        if getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &typeLength) != 0 { return "not a socket" }
        var domain: Int32 = 0
        var domainLength = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &domainLength)
        var listening: Int32 = 0
        var listeningLength = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &listeningLength)
        let family: String
        switch domain {
        case AF_UNIX: family = "a Unix"
        case AF_INET: family = "an IPv4"
        case AF_INET6: family = "an IPv6"
        default: family = "a family-\(domain)"
        }
        let kind: String
        switch type {
        case Int32(SOCK_STREAM.rawValue): kind = listening != 0 ? "listening stream" : "connected stream"
        case Int32(SOCK_DGRAM.rawValue): kind = "datagram"
        case Int32(SOCK_SEQPACKET.rawValue): kind = "seqpacket"
        default: kind = "type-\(type)"
        }
        return "\(family) \(kind) socket"
    }

    private static func freeNames(_ names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, count: Int32) {
        guard let names else { return }
        for index in 0..<max(Int(count), 0) { free(names[index]) }
        free(names)
    }
}
