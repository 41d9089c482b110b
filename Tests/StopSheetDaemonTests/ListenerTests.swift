import Foundation
import Testing
@testable import StopSheetDaemon

@Suite struct ListenerTests {
    private func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        guard lstat(path, &info) == 0 else { return 0 }
        return info.st_mode & 0o7777
    }

    @Test func bindsWithMode0660AndRefusesToMakeDirectoriesOutsideRun() throws {
        try withDirectory { directory in
            let path = directory + "/run/stopsheetd/s.sock"
            #expect(throws: ListenerError.missingDirectory(path: directory + "/run/stopsheetd")) { try bindUnixListener(path: path) }
            #expect(access(directory + "/run", F_OK) != 0, "nothing made on the way")
            try FileManager.default.createDirectory(atPath: directory + "/run/stopsheetd", withIntermediateDirectories: true)
            let fd = try bindUnixListener(path: path)
            defer { close(fd) }
            #expect(mode(path) == 0o660)
            #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
            #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
            _ = try TestClient(path: path)
        }
    }

    /// The documented layout's runtime directory, `/run/NAME`, is made as systemd would (0755).
    @Test(.enabled(if: geteuid() == 0 && access("/run", W_OK) == 0, "needs a writable /run"))
    func makesARuntimeDirectoryDirectlyInRunWith0755() throws {
        let directory = "/run/ssd-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fd = try bindUnixListener(path: directory + "/s.sock")
        defer { close(fd) }
        #expect(mode(directory) == 0o755)
        #expect(mode(directory + "/s.sock") == 0o660)
    }

    @Test func removesAStaleSocketNobodyAnswersOn() throws {
        try withDirectory { directory in
            let path = directory + "/s.sock"
            // A crashed daemon's leftover: the file exists, nothing listens.
            close(try boundUnixSocket(at: path))
            #expect(mode(path) != 0)

            let fd = try bindUnixListener(path: path)
            defer { close(fd) }
            _ = try TestClient(path: path)
        }
    }

    @Test func refusesASocketInUseAndLeavesItAlone() throws {
        try withDirectory { directory in
            let path = directory + "/s.sock"
            let first = try bindUnixListener(path: path)
            defer { close(first) }
            #expect(throws: ListenerError.inUse(path: path)) { try bindUnixListener(path: path) }
            _ = try TestClient(path: path)  // the first server still owns it
        }
    }

    @Test func refusesToDeleteAFileThatIsNotASocket() throws {
        try withDirectory { directory in
            let path = directory + "/s.sock"
            try "precious".write(toFile: path, atomically: false, encoding: .utf8)
            #expect(throws: ListenerError.notASocket(path: path)) { try bindUnixListener(path: path) }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious")
        }
    }

    @Test func refusesPathsLongerThanSunPath() throws {
        let path = "/tmp/" + String(repeating: "p", count: 200) + ".sock"
        #expect(throws: ListenerError.pathTooLong(path: path, limit: 107)) { try bindUnixListener(path: path) }
    }
}
