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
    /// The socket's directory does not exist, and is not a runtime directory to make.
    case missingDirectory(path: String)
    /// The socket's directory could let another user replace the socket with their own server.
    case untrustedDirectory(path: String, reason: String)
    case system(call: String, path: String, errno: Int32)

    public var description: String {
        switch self {
        case .invalidPath(let path): return "invalid socket path \"\(path)\""
        case .pathTooLong(let path, let limit): return "socket path \"\(path)\" is longer than \(limit) bytes"
        case .inUse(let path): return "socket \(path) is already in use by a running server"
        case .notASocket(let path): return "\(path) exists and is not a socket; not removing it"
        case .missingDirectory(let path):
            return "socket directory \(path) does not exist; stopsheetd makes only a runtime directory directly in \(runDirectory) (such as \(runDirectory)/stopsheetd), so create this one first"
        case .untrustedDirectory(let path, let reason):
            return "socket directory \(path) \(reason); refusing to bind there (use a directory owned by this user or root, not writable by others)"
        case .system(let call, let path, let code): return "\(call)(\(path)): \(Errno(code))"
        }
    }
}

/// Held across a bind's umask change and back.
private let bindUmask = Locked(())

/// Binds a listening Unix stream socket at `path`, non-blocking and close-on-exec, mode 0660.
///
/// A socket file left by a crashed run is removed, but only when connecting to it is refused:
/// if something answers, a live server owns it and this fails with `.inUse`; a file that is not
/// a socket is never deleted.
///
/// No step goes by name after the checks: the directory is checked through an open descriptor
/// (owned by this uid or root, not writable by group or others unless sticky, so nobody else can
/// swap the socket for their own), and the socket gets its mode before `bind` creates it (the
/// mode of an unbound socket, under a umask that keeps 0660), not by a `chmod` of the path.
public func bindUnixListener(path: String, backlog: Int32 = 512) throws(ListenerError) -> Int32 {
    let address = try socketAddress(path)
    try createRuntimeDirectory(of: path)
    try checkSocketDirectory(of: path)
    try removeStaleSocket(at: address, path: path)

    let fd: Int32
    do throws(Errno) { fd = try UnixSocket.open(.stream, nonBlocking: true) } catch {
        throw .system(call: "socket", path: path, errno: error.code)
    }
    // Closed here unless it is returned: by this defer alone, so once.
    var listening = false
    defer { if !listening { close(fd) } }
    func fail(_ call: String, _ error: Errno) -> ListenerError {
        .system(call: call, path: path, errno: error.code)
    }
    // Linux creates the socket file with the unbound socket's mode less the umask; the umask is
    // narrowed for the bind only, and only by the bits 0660 needs (other threads that create
    // files meanwhile get at most group write they asked for).
    // The umask is the process's: two binds at once (tests bind in parallel) would each read the
    // other's narrowed mask, and one socket came out 0640 and the process kept a changed umask.
    guard fchmod(fd, 0o660) == 0 else { throw fail("fchmod", .current) }
    let bound: Errno? = bindUmask.withLock { _ in
        let umaskBefore = umask(0o777)
        umask(umaskBefore & ~0o660)
        defer { umask(umaskBefore) }
        do throws(Errno) { try UnixSocket.bind(fd, to: address) } catch { return error }
        return nil
    }
    if let error = bound {
        if error.code == EADDRINUSE {
            throw .inUse(path: path)  // another server bound it since the check above
        }
        throw fail("bind", error)
    }
    guard listen(fd, backlog) == 0 else {
        let error = fail("listen", .current)
        unlink(path)
        throw error
    }
    listening = true
    return fd
}

/// Makes an inherited listening socket (systemd socket activation) non-blocking and
/// close-on-exec, as the serving loop needs. Harmless on a socket that already is.
public func prepareListener(_ fd: Int32) throws(ListenerError) {
    do throws(Errno) { try DescriptorFlags.setNonBlockingAndCloseOnExec(fd) } catch {
        throw .system(call: "fcntl", path: "fd \(fd)", errno: error.code)
    }
}

/// The socket file at a path as this process bound it: removed at exit only if it is still that
/// file (same device and inode), so a daemon that took the path over since keeps it.
public struct BoundSocketFile: Sendable, Equatable {
    public let path: String
    let device: UInt64
    let inode: UInt64

    /// What is at `path` now, if it is a socket.
    public init?(path: String) {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return nil }
        self.path = path
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// Unlinks the path if it still holds this socket; true when it did.
    @discardableResult
    public func removeIfUnchanged() -> Bool {
        guard BoundSocketFile(path: path) == self else { return false }
        return unlink(path) == 0
    }
}

/// What the start requires of a socket path before it touches the file system, and what
/// `--check-config` checks of it too: an address that fits `sockaddr_un`, in a directory that
/// exists or is a runtime directory to make (`socketDirectoryToMake`). The rest (the
/// directory's owner, a server already there) is for the start alone: it depends on who starts
/// and when.
public func checkSocketPath(_ path: String) throws(ListenerError) {
    _ = try socketAddress(path)
    _ = try socketDirectoryToMake(forSocket: path)
}

private func socketAddress(_ path: String) throws(ListenerError) -> UnixSocketAddress {
    do throws(UnixSocketPathError) { return try UnixSocketAddress(path: path) } catch {
        switch error {
        case .invalid: throw .invalidPath(path)
        case .tooLong(_, let limit): throw .pathTooLong(path: path, limit: limit)
        }
    }
}

/// The socket's directory must exist, but for a runtime directory of the documented layout: one
/// directly in `/run` (`/run/stopsheetd`), which the start makes as systemd's `RuntimeDirectory=`
/// would make it. Anything else missing is refused, not made: a mistyped path, or one from a
/// config file, must not have root create directories across the file system. Returns the
/// directory to make, nil when it exists.
private func socketDirectoryToMake(forSocket path: String) throws(ListenerError) -> String? {
    let bytes = Array(path.utf8)
    guard let lastSlash = bytes.lastIndex(of: UInt8(ascii: "/")), lastSlash > 0 else { return nil }
    let directory = String(decoding: bytes[..<lastSlash], as: UTF8.self)
    var info = stat()
    if stat(directory, &info) == 0 { return nil }
    guard errno == ENOENT, directory.hasPrefix(runDirectory + "/"), !directory.dropFirst(runDirectory.count + 1).contains("/") else {
        throw .missingDirectory(path: directory)
    }
    return directory
}

/// Makes the runtime directory `socketDirectoryToMake` names. It gets 0755 whatever the umask,
/// set through a descriptor of the directory just made (never followed through a symlink), so a
/// directory swapped in meanwhile is never the one changed.
private func createRuntimeDirectory(of path: String) throws(ListenerError) {
    guard let directory = try socketDirectoryToMake(forSocket: path) else { return }
    var info = stat()
    guard mkdir(directory, 0o700) == 0 else {
        if errno == EEXIST { return }
        throw .system(call: "mkdir", path: directory, errno: errno)
    }
    let fd = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { throw .system(call: "open", path: directory, errno: errno) }
    defer { close(fd) }
    guard fstat(fd, &info) == 0 else { throw .system(call: "fstat", path: directory, errno: errno) }
    guard info.st_uid == DaemonUser.uid else {
        throw .untrustedDirectory(path: directory, reason: "was replaced by another user's directory")
    }
    guard fchmod(fd, 0o755) == 0 else { throw .system(call: "fchmod", path: directory, errno: errno) }
}

/// Where runtime directories live (systemd's `RuntimeDirectory=`, the FHS).
let runDirectory = "/run"

/// The socket's own directory must be one nobody else can replace the socket in: owned by this
/// uid or root, and not writable by group or others unless sticky (as /tmp is).
private func checkSocketDirectory(of path: String) throws(ListenerError) {
    let bytes = Array(path.utf8)
    let directory = switch bytes.lastIndex(of: UInt8(ascii: "/")) {
    case nil: "."
    case 0?: "/"
    case let slash?: String(decoding: bytes[..<slash], as: UTF8.self)
    }
    let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw .system(call: "open", path: directory, errno: errno) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .system(call: "fstat", path: directory, errno: errno) }
    guard info.st_uid == DaemonUser.uid || info.st_uid == 0 else {
        throw .untrustedDirectory(path: directory, reason: "is owned by uid \(info.st_uid), not by this user (uid \(DaemonUser.uid)) or root")
    }
    if info.st_mode & 0o022 != 0, info.st_mode & S_ISVTX == 0 {
        throw .untrustedDirectory(path: directory, reason: "is writable by \(info.st_mode & 0o002 != 0 ? "others" : "its group") (mode \(String(info.st_mode & 0o7777, radix: 8))) and not sticky")
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
    do {
        defer { close(probe) }
        do throws(Errno) { try UnixSocket.connect(probe, to: address); refusal = nil } catch { refusal = error }
    }
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
