#if canImport(Glibc)
import Glibc
#endif

/// A local file, read whole under a cap or streamed in chunks: `file://` sources, GTFS tables,
/// the config file and time-zone files are all read here. Any thread.
public enum LocalFile {
    /// Why a file could not be read: one line naming the path.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public var message: String

        public init(_ message: String) { self.message = message }

        public var description: String { message }
    }

    /// A local file's bytes, at most `maxBytes` of them (more is a failure, never a truncation).
    /// `regularOnly`: anything but a regular file is a failure, and opening never blocks (a FIFO
    /// with no writer would otherwise hang the open, and one with a writer every read).
    public static func read(_ path: String, maxBytes: Int, regularOnly: Bool = false) -> Result<[UInt8], Failure> {
        let tooLarge = Failure("file \(path) is larger than \(maxBytes) bytes")
        var bytes: [UInt8] = []
        do {
            try stream(path, nonBlocking: regularOnly, opened: { (info) throws(Failure) in
                let type = info.st_mode & S_IFMT
                if regularOnly, type != S_IFREG, type != S_IFDIR {
                    throw Failure("\(path) is not a regular file (\(fileTypeName(type)))")
                }
                guard type == S_IFREG else { return }
                if info.st_size > maxBytes { throw tooLarge }
                bytes.reserveCapacity(Int(info.st_size))
            }) { (chunk) throws(Failure) in
                // A file can grow after fstat, and pipes or devices have no size: the cap holds anyway.
                guard chunk.count <= maxBytes - bytes.count else { throw tooLarge }
                bytes.append(contentsOf: chunk)
            }
            return .success(bytes)
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            preconditionFailure("only LocalFile.Failure is thrown here")
        }
    }

    /// A local file in 64 KiB chunks: `opened` sees its status first (and may refuse it), then
    /// `chunk` each piece, so a large file (a GTFS table) passes through without being held.
    /// Failures opening or reading are `Failure`s; whatever `chunk` throws passes through.
    public static func stream(_ path: String, nonBlocking: Bool = false, opened: (stat) throws -> Void = { _ in },
                              _ chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        var fd: Int32
        // Non-blocking when asked: a FIFO with no writer would otherwise hang the open (and one with
        // a writer every read); a regular file reads the same either way.
        let flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | (nonBlocking ? O_NONBLOCK : 0)
        repeat { fd = open(path, flags) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw Failure("cannot open \(path): \(Errno.current)") }
        defer { close(fd) }

        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure("cannot stat \(path): \(Errno.current)") }
        // open(2) succeeds on a directory; say so plainly instead of waiting for read's EISDIR.
        if info.st_mode & S_IFMT == S_IFDIR { throw Failure("cannot read \(path): \(Errno(EISDIR))") }
        try opened(info)

        let chunkSize = 64 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = Glibc.read(fd, buffer.baseAddress, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure("cannot read \(path): \(Errno.current)")
            }
            if count == 0 { return }
            try chunk(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    private static func fileTypeName(_ type: mode_t) -> String {
        switch type {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a plain file"
        }
    }
}
