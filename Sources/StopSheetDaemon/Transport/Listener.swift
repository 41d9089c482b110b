#if canImport(Glibc)
import Glibc
#endif
import Posix

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
        case .system(let call, let path, let code): return "\(call)(\(path)): \(Errno(code))"
        }
    }
}

/// Binds a listening Unix stream socket at `path`, non-blocking and close-on-exec, mode 0660.
///
/// A socket file left by a crashed run is removed, but only when connecting to it is refused:
/// if something answers, a live server owns it and this fails with `.inUse`; a file that is not
/// a socket is never deleted.
public func bindUnixListener(path: String, backlog: Int32 = 512) throws(ListenerError) -> Int32 {
    let address: UnixSocketAddress
    do throws(UnixSocketPathError) { address = try UnixSocketAddress(path: path) } catch {
        switch error {
        case .invalid: throw .invalidPath(path)
        case .tooLong(_, let limit): throw .pathTooLong(path: path, limit: limit)
        }
    }

    try createParentDirectories(of: path)
    try removeStaleSocket(at: address, path: path)

    let fd: Int32
    do throws(Errno) { fd = try UnixSocket.open(.stream, nonBlocking: true) } catch {
        throw .system(call: "socket", path: path, errno: error.code)
    }
    func fail(_ call: String, _ error: Errno) -> ListenerError {
        close(fd)
        return .system(call: call, path: path, errno: error.code)
    }
    do throws(Errno) { try UnixSocket.bind(fd, to: address) } catch {
        if error.code == EADDRINUSE {
            close(fd)
            throw .inUse(path: path)  // another server bound it since the check above
        }
        throw fail("bind", error)
    }
    // No client can connect before listen(), so the umask's mode between bind and chmod is harmless.
    guard chmod(path, 0o660) == 0 else {
        let error = fail("chmod", .current)
        unlink(path)
        throw error
    }
    guard listen(fd, backlog) == 0 else {
        let error = fail("listen", .current)
        unlink(path)
        throw error
    }
    return fd
}

/// Makes an inherited listening socket (systemd socket activation) non-blocking and
/// close-on-exec, as the serving loop needs. Harmless on a socket that already is.
public func prepareListener(_ fd: Int32) throws(ListenerError) {
    do throws(Errno) { try DescriptorFlags.setNonBlockingAndCloseOnExec(fd) } catch {
        throw .system(call: "fcntl", path: "fd \(fd)", errno: error.code)
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

private func removeStaleSocket(at address: UnixSocketAddress, path: String) throws(ListenerError) {
    var info = stat()
    guard lstat(path, &info) == 0 else {
        if errno == ENOENT { return }
        throw .system(call: "lstat", path: path, errno: errno)
    }
    guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }

    // Non-blocking, so a live server with a full backlog (EAGAIN) cannot hang start-up.
    let probe: Int32
    do throws(Errno) { probe = try UnixSocket.open(.stream, nonBlocking: true) } catch {
        throw .system(call: "socket", path: path, errno: error.code)
    }
    let refusal: Errno?
    do throws(Errno) { try UnixSocket.connect(probe, to: address); refusal = nil } catch { refusal = error }
    close(probe)
    guard let code = refusal?.code else { throw .inUse(path: path) }
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
