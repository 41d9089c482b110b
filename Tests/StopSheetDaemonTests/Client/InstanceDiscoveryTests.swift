#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Posix
import StopSheetClient
import Testing

/// How the client finds the instances of a machine (`Instance.find`, `StopSheetClient.instances`):
/// real Unix sockets in a temporary run directory, bound and listening, or bound and closed (the
/// file a daemon that died leaves). No daemon runs: `InstancesIntegrationTests` asks real ones.
@Suite struct InstanceDiscoveryTests {
    /// A run directory that is removed, with its sockets, at the end of the test.
    final class RunDirectory {
        let path: String
        private var descriptors: [Int32] = []

        init() throws { path = try makeTemporaryDirectory() }

        deinit {
            descriptors.forEach { close($0) }
            try? FileManager.default.removeItem(atPath: path)
        }

        /// A socket someone listens on: connecting succeeds.
        func listening(_ file: String) throws {
            let fd = try boundUnixSocket(at: path + "/" + file)
            listen(fd, 8)
            descriptors.append(fd)
        }

        /// A socket file nobody listens on: connecting is refused.
        func dead(_ file: String) throws {
            close(try boundUnixSocket(at: path + "/" + file))
        }

        func names() -> [String] { Instance.find(in: path).map(\.name) }
    }

    @Test func noInstanceInAnEmptyOrMissingDirectory() throws {
        let run = try RunDirectory()
        #expect(run.names() == [])
        #expect(StopSheetClient.instances(in: run.path).isEmpty)
        #expect(Instance.find(in: run.path + "/absent") == [])
    }

    @Test func oneInstanceIsItsSocketsNameAndPath() throws {
        let run = try RunDirectory()
        try run.listening("bart.sock")
        #expect(Instance.find(in: run.path) == [Instance(name: "bart", socketPath: run.path + "/bart.sock")])
        #expect(Instance(named: "bart", in: run.path).socketPath == run.path + "/bart.sock")
    }

    /// The default instance first, then by name; what is not a `*.sock` socket is no instance.
    @Test func severalInstancesTheDefaultFirstAndOnlySockets() throws {
        let run = try RunDirectory()
        for file in ["renfe.sock", "stopsheetd.sock", "metro.sock", "caltrain.sock", "x.socket", ".sock"] { try run.listening(file) }
        #expect(FileManager.default.createFile(atPath: run.path + "/notes.sock", contents: Data("not a socket".utf8)))
        try FileManager.default.createDirectory(atPath: run.path + "/daemon@metro.sock", withIntermediateDirectories: false)
        #expect(run.names() == ["stopsheetd", "caltrain", "metro", "renfe"])
    }

    /// A socket file nobody listens on is found, and asking it tells a stopped instance; one that
    /// listens but never answers is running and failing.
    @Test func aDeadSocketFileIsAnInstanceThatIsNotRunning() throws {
        let run = try RunDirectory()
        try run.dead("gone.sock")
        try run.listening("mute.sock")
        #expect(run.names() == ["gone", "mute"])
        let found = StopSheetClient.instances(in: run.path, timeout: .milliseconds(200))
        #expect(found.map(\.instance.name) == ["gone", "mute"])
        let (gone, mute) = (found[0], found[1])
        #expect(!gone.isRunning)
        guard case .failure(.cannotConnect(_, let errno)) = gone.health else {
            Issue.record("a dead socket file was connected to: \(gone.health)")
            return
        }
        #expect(errno.code == ECONNREFUSED)
        #expect(mute.isRunning)
        guard case .failure(.timedOut) = mute.health else {
            Issue.record("a socket that never answers: \(mute.health)")
            return
        }
    }
}
