#if canImport(Glibc)
import Glibc
#endif

/// Unix-domain socket calls that every part of the package makes the same way. Stateless.
public enum UnixSocket {
    public enum Kind: Sendable {
        case stream, datagram

        fileprivate var type: Int32 {
            switch self {
            case .stream: return Int32(SOCK_STREAM.rawValue)
            case .datagram: return Int32(SOCK_DGRAM.rawValue)
            }
        }
    }

    /// A new `AF_UNIX` socket, always close-on-exec: no descriptor of ours leaks into a child.
    public static func open(_ kind: Kind, nonBlocking: Bool = false) throws(Errno) -> Int32 {
        let flags = Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        let fd = socket(AF_UNIX, kind.type | flags, 0)
        guard fd >= 0 else { throw Errno.current }
        return fd
    }

    public static func bind(_ fd: Int32, to address: UnixSocketAddress) throws(Errno) {
        guard address.withSockaddr({ Glibc.bind(fd, $0, $1) }) == 0 else { throw Errno.current }
    }

    public static func connect(_ fd: Int32, to address: UnixSocketAddress) throws(Errno) {
        guard address.withSockaddr({ Glibc.connect(fd, $0, $1) }) == 0 else { throw Errno.current }
    }
}
