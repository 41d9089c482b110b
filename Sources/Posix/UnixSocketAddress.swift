#if canImport(Glibc)
import Glibc
#endif

/// Why a path cannot name a Unix socket.
public enum UnixSocketPathError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Empty, or with a NUL byte inside.
    case invalid(path: String)
    case tooLong(path: String, limit: Int)

    public var description: String {
        switch self {
        case .invalid(let path): return "invalid socket path \"\(path)\""
        case .tooLong(let path, let limit): return "socket path \"\(path)\" is longer than \(limit) bytes"
        }
    }
}

/// A `sockaddr_un`, checked once: a filesystem path, or a name in Linux's abstract namespace.
/// Value type; any thread.
public struct UnixSocketAddress: Sendable {
    /// The longest path (or abstract name) in bytes: `sun_path` less one byte, which a path
    /// needs for its NUL terminator and an abstract name for its leading NUL.
    public static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    private let storage: sockaddr_un
    /// What the kernel reads: the family plus the path and its NUL, or plus NUL and the name.
    private let length: socklen_t

    public init(path: String) throws(UnixSocketPathError) {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, !bytes.contains(0) else { throw .invalid(path: path) }
        guard bytes.count <= Self.maxPathBytes else { throw .tooLong(path: path, limit: Self.maxPathBytes) }
        self.init(sunPath: bytes + [0])
    }

    /// An abstract-namespace address (`name` without the leading NUL): nothing on disk to clean up.
    public init(abstractName name: String) throws(UnixSocketPathError) {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty else { throw .invalid(path: "@" + name) }
        guard bytes.count <= Self.maxPathBytes else { throw .tooLong(path: "@" + name, limit: Self.maxPathBytes) }
        self.init(sunPath: [0] + bytes)
    }

    private init(sunPath bytes: [UInt8]) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        storage = address
        length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
    }

    /// Calls `body` with the address as `bind`, `connect` and `sendto` take it.
    public func withSockaddr<Result, Failure: Error>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var address = storage
        let length = self.length
        return try withUnsafePointer(to: &address) { (pointer) throws(Failure) -> Result in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (raw) throws(Failure) -> Result in try body(raw, length) }
        }
    }
}
