import Glibc
import StopSheetClient

/// Which daemon a command talks to: `--socket PATH` or `--instance NAME`, else the same from the
/// environment (`STOPSHEETD_SOCKET`, `STOPSHEETD_INSTANCE`), else the default instance. Instance
/// NAME's socket is NAME.sock in the run directory (`STOPSHEETD_RUN_DIR`, by default
/// /run/stopsheetd, where the units put them), which `instances` and `--all` search.
struct SocketChoice: Sendable {
    let path: String
    let runDirectory: String
    /// The socket `--socket` or `STOPSHEETD_SOCKET` named: `instances` and `--all` ask it too
    /// when it is not in the run directory (a daemon run by hand elsewhere).
    let named: String?

    static let environment: @Sendable (String) -> String? = { getenv($0).map { String(cString: $0) } }

    init(_ arguments: Arguments, environment: (String) -> String? = SocketChoice.environment) throws(Failure) {
        runDirectory = environment("STOPSHEETD_RUN_DIR").flatMap { $0.isEmpty ? nil : $0 } ?? Instance.runDirectory
        // The command line over the environment; within one, a socket and an instance contradict.
        let (socket, instance) = (arguments.value("--socket"), arguments.value("--instance"))
        let chosen: (socket: String?, instance: String?)
        if socket != nil || instance != nil {
            guard socket == nil || instance == nil else { throw .usage("--socket and --instance both name a daemon: give one") }
            chosen = (socket, instance)
        } else {
            let (socket, instance) = (environment("STOPSHEETD_SOCKET"), environment("STOPSHEETD_INSTANCE"))
            guard socket == nil || instance == nil else {
                throw .usage("STOPSHEETD_SOCKET and STOPSHEETD_INSTANCE are both set and both name a daemon: unset one (or give --socket or --instance)")
            }
            chosen = (socket, instance)
        }
        if let name = chosen.instance {
            guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
                throw .usage("'\(name)' is not an instance name: the NAME of stopsheetd@NAME, its socket \(runDirectory)/NAME.sock")
            }
            path = Instance(named: name, in: runDirectory).socketPath
        } else {
            path = chosen.socket ?? Instance(named: Instance.defaultName, in: runDirectory).socketPath
        }
        named = chosen.socket
    }

    /// Every instance to ask for `instances` and `--all`: the run directory's sockets, and the
    /// one `--socket` or `STOPSHEETD_SOCKET` names when it is elsewhere (named by its path).
    var everyInstance: [Instance] {
        let found = Instance.find(in: runDirectory)
        guard let named, !found.contains(where: { $0.socketPath == named }) else { return found }
        return [Instance(name: named, socketPath: named)] + found
    }
}
