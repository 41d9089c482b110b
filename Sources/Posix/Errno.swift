#if canImport(Glibc)
import Glibc
#endif

/// A failed system call's `errno`, printed as `strerror` says it. Value type; any thread.
public struct Errno: Error, Equatable, Sendable, CustomStringConvertible {
    public let code: Int32

    public init(_ code: Int32) { self.code = code }

    /// The calling thread's `errno` now: read it before any other call can change it.
    public static var current: Errno { Errno(errno) }

    public var description: String { String(cString: strerror(code)) }
}
