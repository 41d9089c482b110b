#if canImport(Glibc)
import Glibc
#endif

/// Tells, by inotify, that a name may have appeared under a path: for a client waiting for a
/// socket file that does not exist yet, without a sleep loop. It watches the nearest existing
/// directory on the way to the path (the socket's own directory, or an ancestor that the
/// directory is yet to be made in), and `wait` returns on any entry created, moved in or changed
/// there; the caller then looks again. Owned by one thread; closes its descriptor on deinit.
public final class DirectoryWatch {
    private let inotify: Descriptor
    private var fd: Int32 { inotify.raw }
    private let path: String

    /// `path`: the file whose appearance is awaited.
    public init(for path: String) throws(Errno) {
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw Errno.current }
        inotify = Descriptor(adopting: fd)
        self.path = path
    }

    /// Starts watching the nearest existing directory above `path` (again: the one that exists
    /// may have changed since the last call). Call before looking, so nothing made between the
    /// look and `wait` goes unseen.
    public func arm() throws(Errno) {
        var directory = Self.parent(of: path)
        while true {
            let events = UInt32(IN_CREATE | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
            if inotify_add_watch(fd, directory, events) >= 0 { return }
            let error = Errno.current
            guard error.code == ENOENT || error.code == ENOTDIR, directory != "/" else { throw error }
            directory = Self.parent(of: directory)
        }
    }

    /// Until something changed in a watched directory (true) or `milliseconds` have passed
    /// (false; negative: no limit). Reads every pending event, so the next wait waits anew.
    public func wait(milliseconds: Int64) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let timeout = Int32(clamping: milliseconds < 0 ? -1 : milliseconds)
        var ready: Int32
        repeat { ready = poll(&entry, 1, timeout) } while ready < 0 && errno == EINTR
        guard ready > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(fd, &buffer, buffer.count) > 0 {}
        return true
    }

    /// The directory holding `path` (`.` for a bare name; `/` for the root).
    public static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }
}
