#if canImport(Glibc)
import Glibc
#endif

/// `fcntl` flag changes on a descriptor someone else opened (inherited, or from `pipe`).
/// Stateless.
public enum DescriptorFlags {
    /// Sets `O_NONBLOCK`; harmless on a descriptor that has it.
    public static func setNonBlocking(_ fd: Int32) throws(Errno) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { throw Errno.current }
    }

    /// Sets `FD_CLOEXEC`; harmless on a descriptor that has it.
    public static func setCloseOnExec(_ fd: Int32) throws(Errno) {
        let flags = fcntl(fd, F_GETFD)
        guard flags >= 0, fcntl(fd, F_SETFD, flags | FD_CLOEXEC) == 0 else { throw Errno.current }
    }

    /// Both, as an inherited socket must be before an event loop serves it.
    public static func setNonBlockingAndCloseOnExec(_ fd: Int32) throws(Errno) {
        try setNonBlocking(fd)
        try setCloseOnExec(fd)
    }
}
