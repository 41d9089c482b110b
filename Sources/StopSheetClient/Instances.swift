#if canImport(Glibc)
import Glibc
#endif
import Posix

/// One stopsheetd on this machine, found by its socket: one agency's daemon of several (README,
/// "A region on one box"). Instance NAME of the template units listens on
/// `/run/stopsheetd/NAME.sock`; the default instance, `stopsheetd.service`, on `stopsheetd.sock`.
public struct Instance: Sendable, Equatable, CustomStringConvertible {
    /// The socket's file name without `.sock`: the `%i` of `stopsheetd@NAME.service`.
    public let name: String
    public let socketPath: String

    /// Where the units put every instance's socket.
    public static let runDirectory = "/run/stopsheetd"
    /// The default instance's name: `stopsheetd.socket` listens on `stopsheetd.sock`.
    public static let defaultName = "stopsheetd"
    static let socketSuffix = ".sock"

    public init(name: String, socketPath: String) {
        self.name = name
        self.socketPath = socketPath
    }

    /// Instance `name`'s socket in `runDirectory`.
    public init(named name: String, in runDirectory: String = Instance.runDirectory) {
        self.init(name: name, socketPath: runDirectory + "/" + name + Instance.socketSuffix)
    }

    public var description: String { name }

    /// Every socket named `*.sock` in `runDirectory`, the default instance first, then by name.
    /// A socket file nobody listens on (a daemon run by hand and killed, a socket unit without
    /// `RemoveOnStop=`) is found too: only connecting tells it from a live one. Files of other
    /// types are not sockets of anyone's; a missing or unreadable directory holds none.
    public static func find(in runDirectory: String = Instance.runDirectory) -> [Instance] {
        guard let directory = opendir(runDirectory) else { return [] }
        defer { closedir(directory) }
        var found: [Instance] = []
        while let entry = readdir(directory) {
            let file = withUnsafePointer(to: entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            guard file.hasSuffix(socketSuffix), file.count > socketSuffix.count else { continue }
            let instance = Instance(named: String(file.dropLast(socketSuffix.count)), in: runDirectory)
            var info = stat()
            guard stat(instance.socketPath, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { continue }
            found.append(instance)
        }
        return found.sorted { ($0.name == defaultName ? 0 : 1, $0.name) < ($1.name == defaultName ? 0 : 1, $1.name) }
    }
}

/// An instance and its `health`, or why it could not be had: what `stopsheetctl instances` shows.
public struct InstanceHealth {
    public let instance: Instance
    public let health: Result<Reply<Answer.Health>, ClientError>

    /// False for a socket file nobody listens on (or gone since it was found): a stopped
    /// instance, not a failing one.
    public var isRunning: Bool {
        guard case .failure(let error) = health else { return true }
        return !error.isNotRunning
    }
}

extension ClientError {
    /// The socket file is there but nobody listens on it, or it is gone: no daemon runs there.
    public var isNotRunning: Bool {
        guard case .cannotConnect(_, let errno) = self else { return false }
        return errno.code == ECONNREFUSED || errno.code == ENOENT
    }
}

extension StopSheetClient {
    /// Every instance in `runDirectory` (`Instance.find`) with its `health`, asked in turn, each
    /// on a connection of its own within `timeout`.
    public static func instances(in runDirectory: String = Instance.runDirectory, timeout: Duration = .seconds(15)) -> [InstanceHealth] {
        Instance.find(in: runDirectory).map { health(of: $0, timeout: timeout) }
    }

    /// One instance's `health`, on a connection of its own.
    public static func health(of instance: Instance, timeout: Duration = .seconds(15)) -> InstanceHealth {
        let health = Result { () throws(ClientError) in
            try StopSheetClient(socketPath: instance.socketPath, timeout: timeout).health()
        }
        return InstanceHealth(instance: instance, health: health)
    }
}
