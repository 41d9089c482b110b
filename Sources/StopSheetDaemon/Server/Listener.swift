#if canImport(Glibc)
import Glibc
#endif

public enum ListenerError: Error, Equatable, CustomStringConvertible {
    case invalidPath(String)
    case pathTooLong(path: String, limit: Int)
    /// Something answers on the path: another daemon is running.
    case inUse(path: String)
    /// The path holds a file that is not a socket; it is left alone.
    case notASocket(path: String)
    case system(call: String, path: String, errno: Int32)

    public var description: String {
        switch self {
        case .invalidPath(let path): return "invalid socket path \"\(path)\""
        case .pathTooLong(let path, let limit): return "socket path \"\(path)\" is longer than \(limit) bytes"
        case .inUse(let path): return "socket \(path) is already in use by a running server"
        case .notASocket(let path): return "\(path) exists and is not a socket; not removing it"
        case .system(let call, let path, let code): return "\(call)(\(path)): \(String(cString: strerror(code)))"
        }
    }
}

/// Binds a listening Unix stream socket at `path`, non-blocking and close-on-exec, mode 0660.
///
/// A socket file left by a crashed run is removed, but only when connecting to it is refused:
/// if something answers, a live server owns it and this fails with `.inUse`; a file that is not
/// a socket is never deleted.
public func bindUnixListener(path: String, backlog: Int32 = 512) throws(ListenerError) -> Int32 {
    guard !path.isEmpty, !path.utf8.contains(0) else { throw .invalidPath(path) }
    // The NUL terminator needs a byte of sun_path too.
    let limit = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1
    guard path.utf8.count <= limit else { throw .pathTooLong(path: path, limit: limit) }

    try createParentDirectories(of: path)
    try removeStaleSocket(at: path)

    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard fd >= 0 else { throw .system(call: "socket", path: path, errno: errno) }
    func fail(_ call: String) -> ListenerError {
        let code = errno
        close(fd)
        return .system(call: call, path: path, errno: code)
    }
    let bound = withUnixAddress(path) { bind(fd, $0, $1) }
    if bound != 0 {
        if errno == EADDRINUSE {
            close(fd)
            throw .inUse(path: path)  // another server bound it since the check above
        }
        throw fail("bind")
    }
    // No client can connect before listen(), so the umask's mode between bind and chmod is harmless.
    guard chmod(path, 0o660) == 0 else {
        let error = fail("chmod")
        unlink(path)
        throw error
    }
    guard listen(fd, backlog) == 0 else {
        let error = fail("listen")
        unlink(path)
        throw error
    }
    return fd
}

/// Makes an inherited listening socket (systemd socket activation) non-blocking and
/// close-on-exec, as the serving loop needs. Harmless on a socket that already is.
public func prepareListener(_ fd: Int32) throws(ListenerError) {
    let flags = fcntl(fd, F_GETFL)
    guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
        throw .system(call: "fcntl", path: "fd \(fd)", errno: errno)
    }
    let descriptorFlags = fcntl(fd, F_GETFD)
    guard descriptorFlags >= 0, fcntl(fd, F_SETFD, descriptorFlags | FD_CLOEXEC) == 0 else {
        throw .system(call: "fcntl", path: "fd \(fd)", errno: errno)
    }
}

/// `mkdir -p` of the socket's directory; directories made here get 0755 whatever the umask.
private func createParentDirectories(of path: String) throws(ListenerError) {
    let bytes = Array(path.utf8)
    guard let lastSlash = bytes.lastIndex(of: UInt8(ascii: "/")), lastSlash > 0 else { return }
    var index = 1
    while index <= lastSlash {
        if index == lastSlash || bytes[index] == UInt8(ascii: "/") {
            let directory = String(decoding: bytes[..<index], as: UTF8.self)
            if mkdir(directory, 0o755) == 0 {
                chmod(directory, 0o755)
            } else if errno != EEXIST {
                throw .system(call: "mkdir", path: directory, errno: errno)
            }
        }
        index += 1
    }
}

private func removeStaleSocket(at path: String) throws(ListenerError) {
    var info = stat()
    guard lstat(path, &info) == 0 else {
        if errno == ENOENT { return }
        throw .system(call: "lstat", path: path, errno: errno)
    }
    guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }

    // Non-blocking, so a live server with a full backlog (EAGAIN) cannot hang start-up.
    let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard probe >= 0 else { throw .system(call: "socket", path: path, errno: errno) }
    let connected = withUnixAddress(path) { connect(probe, $0, $1) }
    let code = errno
    close(probe)
    if connected == 0 { throw .inUse(path: path) }
    switch code {
    case ECONNREFUSED:
        guard unlink(path) == 0 || errno == ENOENT else { throw .system(call: "unlink", path: path, errno: errno) }
    case ENOENT:
        return  // removed meanwhile
    case EAGAIN, EINPROGRESS:
        throw .inUse(path: path)
    default:
        throw .system(call: "connect", path: path, errno: code)
    }
}

/// Calls `body` with a `sockaddr_un` for `path`, which the caller has checked fits.
func withUnixAddress<Result>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        let bytes = Array(path.utf8.prefix(raw.count - 1))
        raw.copyBytes(from: bytes)
    }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}
